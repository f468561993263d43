<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>AotStudio::Client::ArtifactStore</name>
    <message>
        <source>the engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be read here and this session has no cache folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not in this session&apos;s cache and no engine is connected: connect to %2 to fetch it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: fetching %2 timed out after %3 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: fetching %2 failed: the engine is not connected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: fetching %2 failed: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a slice arrived damaged or out of order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create the cache folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the file changed on the engine&apos;s machine while it was read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its SHA-256 does not match the engine&apos;s (the file changed or was damaged on the way); nothing was kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: fetching %2 failed: %3 The transfer stopped at byte %4 of %5 and the engine did not come back within %6 s; nothing was kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an unknown size</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Client::EngineClient</name>
    <message>
        <source>The engine was not found at %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled before it started.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled. The engine did not stop within %1 s, so it was restarted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Results received earlier are kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Protocol mismatch: the engine speaks protocol version %1, this studio speaks version %2. Install matching versions of the studio and the engine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine crashed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine exited unexpectedly with code %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its last message: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine was stopped before this job ended.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the job again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart the engine and run the job again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot start the engine %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine sent a line longer than %1 MiB, the protocol&apos;s limit; it was skipped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine wrote a line longer than %1 MiB to its error output; it was skipped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: connecting failed: the ssh program was not found on PATH. Install OpenSSH&apos;s client.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the handshake failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine was stopped during a transfer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconnect and open the file again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: connecting failed: cannot start ssh: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine was not found: looked for %1, for %2 on PATH and for %3. Install it with: %4 (or choose its venv with Engine → Choose Local Engine…, or set AOTSTUDIO_ENGINE to its path).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The target environment %1 cannot be started: %2. Choose another target beside Device, or make it with aotstudio-cli target add.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the connection was lost and the engine that came back does not know job %2 (it keeps no session), so the job is lost. What it sent before the drop is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the connection was lost and the engine was gone when the studio reconnected, so job %2 is lost. The events and files received before the drop are kept; the job&apos;s folder on the host holds no half-written result (jobs write it atomically).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: events %2 to %3 were no longer in the engine&apos;s replay buffer; the jobs they belonged to may show gaps.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the connection was lost; reconnecting in %2 s (attempt %3 of %4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconnect; if the engine on the host is still running, run the job again (its folder is written atomically).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Reconnecting failed %2 times; the last attempt: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Reconnecting failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: another client attached to this studio&apos;s engine session %2, so the engine let this connection go. Its jobs go on there for that client; this studio does not reconnect, so as not to take the session back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the engine that answered keeps no session (its hello has none), so a dropped connection will end its jobs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: job %2 ended on the host while the connection was down, but its last events (%3 to %4 of the engine&apos;s) were no longer in the engine&apos;s replay buffer, so its result did not arrive. Its folder on the host holds what it wrote.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: job %2 goes on, but some of its events (among the engine&apos;s %3 to %4) were no longer in the engine&apos;s replay buffer when the studio reattached: progress, snapshots or log lines from that time are missing from this session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the engine on the host is older than this studio and has no --session, so it was started without one: a dropped connection will end its jobs. Update the engine on the host to keep jobs running across drops.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its result is in its folder on the host when it finishes.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Client::KernelCatalog</name>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a kernels.json written by the AOT Studio pipeline</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Client::RemoteEngine</name>
    <message>
        <source>starting the engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 does not exist on the host. Give the full path of aotstudio-engine there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be run on the host (not executable).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checking the host key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the host is unknown or its key changed. Connect once with ssh in a terminal to accept its key, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>authenticating</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the host refused the key. Check the user name and the identity file, or load the key into ssh-agent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connecting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no SSH server answered. Check the host name and the port.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the connection was lost (ssh exit status %2). Results received so far are kept; reconnect to go on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ssh said: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ssh failed (exit status 255).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the engine exited with status %1 before its handshake.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 failed: %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Client::Session</name>
    <message>
        <source>Cannot open the session file %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not an AOT Studio session: its first line is not a session header. Open a .aotsession file saved by the studio.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session file ends in a truncated line (line %1); everything before it was loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line %1 of the session file is not JSON and was skipped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was saved in session format version %2; this studio reads versions up to %3. Open it with a newer AOT Studio.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is empty: it holds no session header.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 exists and is not empty; choose a new folder for the session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create %1: check that the folder is writable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot copy the job folder %1 into %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot replace the empty folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot move the session into place at %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is larger than %2 MiB, the limit for a session file; it was not read. Is it a session saved by the studio?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Job %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be opened: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it holds no numerics.json or tune.json (the folder of aotstudio-cli numerics or tune --out).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a JSON object (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Hint: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Client::StageNames</name>
    <message>
        <source>Loading the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting the graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decomposing to core ATen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiling with AOTInductor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the package</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verifying outputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measuring latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measuring cold start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing the bundle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running the float64 reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running eager op by op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running the compiled graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Planning the trials</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiling the trials</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiling the torch.compile baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking recompiles on the workload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing the results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaying a burst of requests</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::CaptureDialog</name>
    <message>
        <source>Record</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile from Capture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export from Capture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capture From Script</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the Python script that serves the model, e.g. app.py</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Script to Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Python scripts (*.py);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the script&apos;s arguments, as on a command line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attribute path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attribute path: from a global of the script (model, pipe.unet). Class: the one instance of a qualified class that is called (pkg.mod.Encoder).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop recording after this many calls (the script keeps running)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls kept per input signature (reservoir-sampled over the run): verify runs the package on them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the script after this many seconds; what was recorded is kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder for the Record</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Script:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep inputs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max time:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Record folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the script with the engine&apos;s Python and record every call of the module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the script; the calls recorded so far are kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile %1 with these dynamic ranges; verify runs the package on every recorded shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export a bundle of %1 with these buckets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile and export use the window&apos;s model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) recorded</source>
        <translation>
            <numerusform>%n call recorded</numerusform>
            <numerusform>%n calls recorded</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose the script to run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name the module to record: an attribute path from a global of the script, or its class.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder for the record.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine is not running: start it (Engine → Restart engine) and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the script…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled: the calls recorded so far are in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
Hint: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) recorded, %1 distinct input signature(s), in %2.</source>
        <translation>
            <numerusform>%n call recorded, %1 distinct input signature(s), in %2.</numerusform>
            <numerusform>%n calls recorded, %1 distinct input signature(s), in %2.</numerusform>
        </translation>
    </message>
    <message>
        <source>Smallest size the package takes (torch.export specialises 0 and 1: at least 2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest size the package takes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Range:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(left static: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch sizes of the bundle&apos;s packages, comma-separated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pad-safe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows are independent: a smaller batch may run zero-padded in a larger bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Buckets:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every dimension was the same in every call: the package is static.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warnings:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 of the calls, padding waste %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>no bucket for %n call(s) (sizes %1)</source>
        <translation>
            <numerusform>no bucket for %n call (size %1)</numerusform>
            <numerusform>no bucket for %n calls (sizes %1)</numerusform>
        </translation>
    </message>
    <message>
        <source>No buckets: give at least one batch size.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::CaptureHistogram</name>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>calls in the range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>calls outside the range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>calls</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::Charts</name>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::CompareFieldModel</name>
    <message>
        <source>(not recorded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::CompareKernelModel</name>
    <message>
        <source>only in A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only in B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>renamed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>timed only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in A, %2 in B: the same source once each job&apos;s own kernel name is replaced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One figure per run, without an interval: where the time went. The latency ratio with its interval is in the summary.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not profiled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1×</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A (ms/call)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B (ms/call)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B − A (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B / A</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::CompareView</name>
    <message>
        <source>compile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quantize scheme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bundle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms (p10–p90 %2–%3, %4 runs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1× (95% CI %2–%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1× (no interval)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>profile (kernels timed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the compile&apos;s measure stage (no kernel times)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+%1 more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a changed kernel to see how its source differs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A stage both jobs have: its last snapshot in A against the one in B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick two job folders to compare.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comparing %1 with %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These two jobs cannot be compared: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No comparison.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 kernels in A, %2 in B: %3 only in A, %4 only in B, %5 changed, %6 unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernels not compared: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Neither job was profiled: no time per kernel (aotstudio-cli profile --package DIR/model.pt2 --out DIR on each).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only %1 was profiled: no time differences.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup over eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Machine verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency B / A:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not given: both runs need a speedup with its interval.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The two jobs were measured in different runs: the ratio goes through each run&apos;s own eager.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager itself moved between the runs (its p10–p90 ranges do not overlap): another machine, torch or load. Read the ratio as one of speedups, not of latency.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Missing in A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Missing in B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nodes only in A: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nodes only in B: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same source once each job&apos;s own kernel name is replaced.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The source is the same; the covered nodes or call sites differ.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The two jobs have no graph stage in common.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after %1, %2 nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot diff this stage: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: %1 · B: %2 — %3 only in A, %4 only in B, %5 changed, %6 unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only in A: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only in B: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 → %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op counts: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stages only in A: %1; only in B: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak memory of A and B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The two compiles&apos; memory plans and fusion decisions (memory.json, fusion.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory plans not compared: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Planned peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>neither measured (no profile.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Buffers: %1 paired by the nodes they hold, %2 only in A, %3 only in B.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Buffer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
    <message>
        <source>Only in A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only in B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fusion decisions not compared: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fusion decisions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 refused pairs and %2 fused kernels in A; %3 and %4 in B.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Partial: %1&apos;s decision log is incomplete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A and B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused because (Inductor&apos;s reason)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes by fusion status</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ConnectDialog</name>
    <message>
        <source>Delete Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to a Remote Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as in ~/.ssh/config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default (22)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine on the host: a full path, or a name found on the host&apos;s PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ssh-agent and ssh&apos;s default keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jobs write their output here on the host; the studio reads it through the engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the private key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine on the host:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Identity file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Job folder on the host:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenSSH carries the engine&apos;s protocol: keys, the agent and ~/.ssh/config work as in a terminal, and the studio opens no port. Results and files stay on the host and are fetched when shown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the host to connect to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The host %1 is not a host name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the path of aotstudio-engine on the host.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The identity file %1 does not exist on this machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The job folder on the host must be an absolute path (it starts with /).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Identity File</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ErrorScaleLegend</name>
    <message>
        <source>NaN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (tolerance)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ExportDialog</name>
    <message>
        <source>Export Bundle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiles one package per batch size from &lt;b&gt;%1&lt;/b&gt; and writes them, with a manifest and a report, into a new bundle folder that aotstudio-run can load.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new folder: the engine never overwrites an existing bundle.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 1,4,16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch sizes, separated by commas: one compiled package each.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dynamic batch from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adds one package whose batch dimension may be any size in this range.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows are independent (padding is safe)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lets the runtime answer a batch of 3 with the batch-4 package by padding with zeros. Leave it off if rows influence each other (e.g. batch normalization in training mode).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also write a .zip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Do not measure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fresh processes timed from spawn to first output, bundle against eager PyTorch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bundle folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch buckets:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cold-start runs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder for the bundle.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists. The engine never overwrites a bundle: choose a new folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists. Choose another bundle folder or do not write a .zip.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch buckets must be whole numbers from 1 to %1, separated by commas (e.g. 1,4,16).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give at least one batch bucket or a dynamic batch range.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The dynamic batch range must run from a smaller to a larger size.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder to create the bundle in</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::GraphCanvas</name>
    <message>
        <source>No graph loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <translation>
            <numerusform>%n node</numerusform>
            <numerusform>%n nodes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n node(s)</source>
        <translation>
            <numerusform>%1 · %n node</numerusform>
            <numerusform>%1 · %n nodes</numerusform>
        </translation>
    </message>
    <message>
        <source>parameter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>buffer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>constant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>zoom in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>zoom out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arrow keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fit the whole graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wheel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>zoom at the pointer</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::GraphDiffView</name>
    <message>
        <source>◀ Previous pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next pass ▶</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the step into the previous pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the step into the next pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot show this step: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No snapshots.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 of %2: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 → %2: &lt;span style=&quot;color:#2e9e44&quot;&gt;+%3 added&lt;/span&gt;, &lt;span style=&quot;color:#d03b3b&quot;&gt;−%4 removed&lt;/span&gt;, &lt;span style=&quot;color:#e08e0b&quot;&gt;~%5 changed&lt;/span&gt;, %6 unchanged</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::GraphLayout</name>
    <message>
        <source>part %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::GraphMinimap</name>
    <message>
        <source>Overview: click or drag to move the view</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::GraphPanel</name>
    <message>
        <source>Search by name, op, module or source line…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selected snapshot against the one before it: added, removed and changed nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n node(s)</source>
        <translation>
            <numerusform>%1 — %n node</numerusform>
            <numerusform>%1 — %n nodes</numerusform>
        </translation>
    </message>
    <message>
        <source>No snapshot selected: pick a stage or pass in the Pipeline panel.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whose error colours the nodes: eager (op by op in the run&apos;s dtype) or compiled (AOTInductor, every intermediate exposed), each against the float64 reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select the first node past the tolerance whose inputs are all within it: where the error starts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error of:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First divergent: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No node past the tolerance</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n more refused pair(s) in the Inspector</source>
        <translation>
            <numerusform>%n more refused pair in the Inspector</numerusform>
            <numerusform>%n more refused pairs in the Inspector</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Fusion decisions of job %1: %n refused pair(s).</source>
        <translation>
            <numerusform>Fusion decisions of job %1: %n refused pair.</numerusform>
            <numerusform>Fusion decisions of job %1: %n refused pairs.</numerusform>
        </translation>
    </message>
    <message>
        <source>No fusion decisions: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This job has no fusion decisions (fusion.json): only a compile made by this version records them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No graph: this job stopped before its first snapshot.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No graph yet: the first snapshot appears when export finishes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No graph: this job records no graph snapshots; pick a compile in the Jobs dock.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::GraphView</name>
    <message>
        <source>Search name, op, module, source line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour: op category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour: fused kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour: measured time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour: dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit the whole graph in the view (0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expand all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expand every module group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collapse all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collapse every module group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the view as SVG or PNG, or the graph as DOT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>View as SVG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>View as PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph as DOT…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graphviz DOT (*.dot *.gv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(top level)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outputs: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source: %1:%2 in %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernels: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernels: none covers this node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passes: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AOT Studio graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour: numeric error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each node&apos;s error against the float64 reference (a numerics job)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour: fusion status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whether Inductor fused each node, considered it and refused (hover a node for the reason), or never considered it (a compile&apos;s fusion decisions; post-grad snapshots)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>considered and refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>considered, another pair fused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never a candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hover a node for the pairs Inductor refused to fuse it in, with its reason</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::HelpWindows</name>
    <message>
        <source>Getting started (README)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine protocol and job folders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bundles and aotstudio-run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profiles and measuring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Serving</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph snapshots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hacking on AOT Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AOT Studio Documentation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No documentation was found: looked in $AOTSTUDIO_DOCS and in %1. Install the studio with its documentation (cmake --install) or set AOTSTUDIO_DOCS to a folder holding README.md.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Design</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code style</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::InputsDialog</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check Shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inputs of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on %2, %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop building the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dim</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dynamic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tie name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dynamic dimensions of one name are one dimension (e.g. the batch of every input)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Build the inputs again at the edited shapes and run the model once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model&apos;s Shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put every size back to the model&apos;s own example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine is not running: start it (Engine → Restart engine) and open this again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Building the model and its example inputs…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on %2, %3; parameters: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
Hint: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine could not build the inputs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Values %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scalar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size of dimension %1 of %2 (the model&apos;s example: %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make dimension %1 of %2 dynamic in the exported program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outputs of one eager forward: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At the edited shapes the model ran: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dimension %1 of %2: the minimum %3 is above the maximum %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dimension %1 of %2: its size %3 is outside its dynamic range %4..%5%6.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (the range of “%1”)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sizes change the example inputs every job of this model starts from (their values are repeated or cut, so token ids and masks keep their range). Inputs that share a dimension, such as ids and their attention mask, must be changed together. A dynamic range must hold the example&apos;s size; dimensions of one tie name share one range.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::InspectorPanel</name>
    <message>
        <source>Property</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a pass, node or kernel.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snapshot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the node is not in this snapshot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no snapshot loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>root</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module stack</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Function</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passes that touched it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provenance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 by %2 (from %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (not computed by a generated kernel)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2 per call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Library op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share of kernel time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Covered nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>post-grad</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From pre-grad nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pass %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed the graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Numerical error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tolerance %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not measured at this node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NaN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no value (not exposed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, first divergent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, diverges</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>norm error: max |x − reference| / max |reference|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max rel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Growth over inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fused with other nodes into one kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>considered and refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>considered; another pair was fused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never a fusion candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fusion</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> and %n more</numerusform>
            <numerusform> and %n more</numerusform>
        </translation>
    </message>
    <message>
        <source>not fused with %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::JobController</name>
    <message>
        <source>%1: done in %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snapshot %1: %2 nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restarting the engine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to the engine on %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the local engine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile a model first: Sweep Shapes verifies the last compiled package.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweeping %1 across its shapes…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweeping the package %1 into %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweep a Bundle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bundle on %1 (a folder holding manifest.json, or a .zip):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bundles (manifest.json *.zip);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweeping the bundle %1 across its shapes…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweeping the bundle %1 into %2 (loaded without a trusted signature, as you chose)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweeping the bundle %1 into %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a model first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose at least one scheme in Run Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the output folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profiling %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantizing %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiling %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profiling %1 on %2 into %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantizing %1 on %2 into %3 (schemes: %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiling %1 on %2 into %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profiling the package of the last compile (%1): same model, device and options, so it is not compiled again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting a bundle to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting a bundle of %1 (batch %2) into %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not started: no CUDA device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not compiled: CUDA was requested, but the engine has no CUDA device.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA was requested, but the engine reports no CUDA device (torch %1, CUDA %2). Nothing was compiled; choose CPU to compile on the CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unavailable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export · %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported the bundle %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bundle written to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweep failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Swept %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweep of %1 FAILED: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profiled %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantized %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Hint: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine reported a problem: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine did not load the bundle %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for your decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profiling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantizing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweeping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine stopped during this job.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting the bundle %1 was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting the bundle %1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 failed: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The job failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage: %1
Code: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;The engine is not running.&lt;/b&gt; %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine stopped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The next compile uses the recipe “%1” (Run Settings shows its options).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tune Compile Recipe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile %1 under several option sets (freezing, max-autotune, fusion, bf16, …), verify each against eager and time them all.

Time budget (no trial starts after it):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tune</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding where %1 diverges numerically…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tuning the compile recipe of %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding the numerical divergence of %1 on %2 in %3 into %4 (each node against a float64 reference)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tuning the compile recipe of %1 on %2 into %3 (budget %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n min</source>
        <translation>
            <numerusform>%n min</numerusform>
            <numerusform>%n min</numerusform>
        </translation>
    </message>
    <message>
        <source>Tune · %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The numerics result of %1 cannot be shown: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tune result of %1 cannot be shown: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result not readable</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s), no recipe qualified</source>
        <translation>
            <numerusform>%n trial, no recipe qualified</numerusform>
            <numerusform>%n trials, no recipe qualified</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s), recipe: %1</source>
        <translation>
            <numerusform>%n trial, recipe: %1</numerusform>
            <numerusform>%n trials, recipe: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Numerics of %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tuned %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding numerical divergence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tuning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding the numerical divergence of %1 was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding the numerical divergence of %1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the Venv of the Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No engine in this venv</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no %2. Install the engine into it with: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine is not ready yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jobs of %1 use its own example shapes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jobs of %1 use the shapes %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No longer using the engine in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on the Ray cluster %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last compile was regional: it has no package of the whole model to sweep.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last compile was regional: export a bundle from a compile of the whole model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The target cannot change while a job runs: cancel it or wait for it to finish.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jobs run in the studio&apos;s own engine from now on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jobs run in the engine of target %1 from now on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to reproduce: Make Repro needs a compile that failed to compile or verify, or a numerics job that found a divergent node.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Making a repro of %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Making a standalone repro of %1 (%2) and running it once in a fresh process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it reproduces the failure in a fresh process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it did NOT reproduce the failure in a fresh process (flaky, or it depends on the engine&apos;s machine or settings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>whether it reproduces is not known (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repro written to %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repro %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the numerics divergence of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the verify mismatch of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the failed compile of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Making a repro</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make Repro</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a folder that reproduces this failure with plain torch and run it once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Connection to %1 lost — reconnecting (attempt %2 of %3)…&lt;/b&gt; Running jobs go on on the host.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reattached to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reattached to %1; job %2 continued.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reattached to %1; jobs %2 continued.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2 s after the link dropped)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection to %1 lost — reconnecting (attempt %2 of %3)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lost (the log says why): %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::JobHeading</name>
    <message>
        <source>job %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>regional</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max-autotune</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled during %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed at %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done in %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running: %1 (%2%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quantize</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>numerics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tune</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (torch %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed at %1 (%2)</source>
        <extracomment>%1 the stage, %2 the error code (model_error)</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::JobView</name>
    <message>
        <source>Nothing for job %1 (%2) yet: %3</source>
        <extracomment>%1 the job&apos;s number, %2 its kind (&quot;compile&quot;), %3 what the view shows when it has ended</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing for job %1 (%2): %3</source>
        <extracomment>%1 the job&apos;s number, %2 its kind (&quot;profile&quot;), %3 what the dock shows</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this view shows a compile&apos;s result, an exported bundle or why a job failed; the job&apos;s own dock shows its results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its result appears here when it ends</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this dock shows the nodes and kernels of a compile, profile or numerics job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this dock shows the graph of a compile, profile or numerics job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this dock shows the kernels a compile generated and a profile timed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this dock shows a compile&apos;s memory plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this dock shows a profile, or a compile&apos;s quick measurement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this dock shows a quantize job&apos;s schemes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this dock shows a sweep&apos;s shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this dock shows a tune job&apos;s trials</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::JobsPanel</name>
    <message>
        <source>Job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session&apos;s jobs, newest first: pick one to show it in every dock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No jobs yet: Compile, Profile or open a session</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::KernelTableModel</name>
    <message>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Covered nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cpp: generated C++; triton: generated Triton; library: a call into ATen, oneDNN or cuBLAS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This kernel&apos;s share of the summed time of all kernels in the profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Post-grad graph nodes this kernel computes (Inductor provenance)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Post-grad nodes: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From pre-grad nodes: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Library op: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::KernelsPanel</name>
    <message>
        <source>Filter by kernel, kind or node…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a kernel to see its generated source.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No kernels: compile a model first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n kernel(s) and library call(s)</source>
        <translation>
            <numerusform>%n kernel and library call</numerusform>
            <numerusform>%n kernels and library calls</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — a library call, no generated source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — generated %2 source</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::LatencyChart</name>
    <message>
        <source>Compiled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Median latency per call (ms); whiskers p10–p90</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p90 %1 ms ▸</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regional</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Median latency per call (ms); whiskers p10–p90 (greyed: unreliable)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::LayerErrorModel</name>
    <message>
        <source>Layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean abs error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::LogView</name>
    <message>
        <source>All messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Info and above</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warnings and errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine messages appear here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>job %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>debug</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter messages…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::MainWindow</name>
    <message>
        <source>&amp;Compile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export, compile with AOTInductor, verify and measure (Ctrl+R)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;ancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel the running job (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;factory…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a Python file with a function returning (model, example_inputs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Restart engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New folder per job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output folder. Empty: a new folder under %1 for every job.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the output folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About AOT Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About AOT Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;AOT Studio %1&lt;/h3&gt;&lt;p&gt;A studio for PyTorch ahead-of-time compilation (torch.export and AOTInductor).&lt;/p&gt;&lt;p&gt;Engine: %2&lt;/p&gt;&lt;p&gt;Licensed under the GNU GPL, version 3 or later.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine %1 · torch %2 · CUDA %3 · %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unavailable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting engine…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine not running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open model factory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Python files (*.py)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Factory function</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Function in %1 that returns (model, example_inputs):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine reports no CUDA device.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export Bundle…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package the last compile&apos;s model as a bundle of batch-size packages (Ctrl+E)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile, then measure eager against compiled: latency, kernels, memory, cold start and throughput (Ctrl+P)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quantize</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare quantization schemes: latency, memory, size and accuracy against fp32 eager (Ctrl+Shift+Q)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run &amp;Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data type, Inductor options, dynamic dimensions, measuring and schemes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show a saved session (.aotsession) without running anything</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save Session As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy this session and its job folders into a new folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;Report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write an HTML report with the charts as PNG and the tables as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset &amp;Layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inspector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent Sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No recent sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting the report failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report written to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Report (a new folder)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;weep Shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verify the last compiled package across the shapes it accepts: every dynamic dimension&apos;s range ends, guards and interior sizes must match eager, sizes outside must be refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Hugging Face folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a local Hugging Face model folder (config.json, weights optional): its example inputs are built from the config and forward&apos;s signature; nothing is downloaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sample:NAME, path/to/file.py:factory, hf:FOLDER, timm:NAME or torchvision:NAME (options after ?: class, batch, seq, size, weights); SPEC#PATH compiles the sub-module PATH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Hugging Face model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no config.json. Pick the folder that holds the model&apos;s config.json (for a diffusers pipeline, one of its component folders such as unet/).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Connect to Remote Engine…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the engine on another machine over SSH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use &amp;Local Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (over SSH) · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweep a &amp;Bundle…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verify an exported bundle (a folder or a .zip) across its shapes and its bucket policy; its signature is checked against the engine&apos;s trust store first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Job Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the folder of a command-line job: aotstudio-cli numerics --out DIR (the capture graph coloured by each node&apos;s numerical error) or tune --out DIR (the trials, their Pareto front and the recipe)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare &amp;With…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two finished jobs side by side: options, versions, package size, kernels with their source diffs and times, and the graph of each stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tune</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare %1 with %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Job %1: %2 %3 — %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare: the first job folder (A)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another job folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare With</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare %1 (A) with (B):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare with: the second job folder (B)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find Numerical &amp;Divergence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run every node of the captured graph against a float64 reference, eager and compiled, and colour the graph by each node&apos;s error: where do they first diverge?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Tune Compile Recipe…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile the model under several option sets within a time budget, verify and time each, and pick the fastest recipe within the error bound (the Tune dock)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;hoose Local Engine…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick the venv the aotstudio-engine wheel is installed in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Inputs…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model&apos;s example inputs (names, shapes, dtypes): edit their shapes and mark dimensions dynamic (Ctrl+I)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Forget Chosen Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop using the venv chosen with Choose Local Engine…: the engine is then looked for in AOTSTUDIO_ENGINE, next to the studio, on PATH and in ~/.local/share/aotstudio/engine-venv</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last compile was regional: it has no package of the whole model to sweep. Compile without “Regional compile” (Run Settings) first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last compile was regional: a bundle is exported from a compile of the whole model. Compile without “Regional compile” (Run Settings) first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wall time of the running job (of the last one when none runs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1:%2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make &amp;Repro</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Python + torch the jobs are built with: the studio&apos;s own, or a target environment made with aotstudio-cli target add (e.g. the torch a GPU service runs). Targets live in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Capture From Script…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run your own serving script, record every call of one module, and compile or export with the dynamic ranges and buckets its traffic needs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Next Pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the graph after the next pass of the job shown (Alt+Down)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Previous Pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Fit Graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Studio&apos;s own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine installed with the studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (torch %2, Python %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (unusable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (missing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The repro reproduces the failure in a fresh process (%1 s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The repro did NOT reproduce the failure in a fresh process: the failure may be flaky, or depend on the engine&apos;s machine, its settings or the engine process.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whether the repro reproduces is not known: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repro</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder: %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder on %1: %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run it again: cd %1 &amp;&amp; python repro.py</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subgraph: node %1 (%2), %3 side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a folder that reproduces a failure with plain torch (after a compile that failed to compile or verify, or a numerics job that found a divergence)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a folder that reproduces %1 with plain torch and run it once in a fresh process (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target %1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconnecting to %1…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::MeasurementText</name>
    <message>
        <source>%1×</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(%1% CI %2–%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>(no interval: %n block(s))</source>
        <translation>
            <numerusform>(no interval: %n block)</numerusform>
            <numerusform>(no interval: %n blocks)</numerusform>
        </translation>
    </message>
    <message>
        <source>(no interval)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: compiled is slower than eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: slower than fp32 eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the bundle starts slower than eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: no clear difference (the interval holds 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms (no interval)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms (95% CI %2–%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>noisy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreliable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not assessed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not assessed: the result predates machine verdicts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ok: the machine allowed a fair measurement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ok: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>noisy: use these figures with care</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>noisy: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreliable: the machine did not allow a fair measurement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreliable: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown: the machine load could not be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown: the machine load could not be read (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not stated</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 (of %n usable CPU(s))</source>
        <translation>
            <numerusform>%1 (of %n usable CPU)</numerusform>
            <numerusform>%1 (of %n usable CPUs)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2% CI %3–%4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the regional model is slower than the whole one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no reliable ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no reliable ratio: its %1% interval %2–%3 is wider than the estimate %4×</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 (+%n more)</source>
        <translation>
            <numerusform>%1 (+%n more)</numerusform>
            <numerusform>%1 (+%n more)</numerusform>
        </translation>
    </message>
    <message>
        <source>Measurement %1 because:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>measurement: %1: %2 (every reason: the view&apos;s Measurement line)</source>
        <extracomment>%1 the verdict word (unreliable, noisy), %2 its first reason&apos;s name</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (greyed: unreliable)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::MemoryPanel</name>
    <message>
        <source>none: lives inside its kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reuses %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>returned by the extern call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (a view or alias)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live memory along the kernel order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Buffer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lifetime (steps)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Storage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile a model to see how its package plans memory: every buffer&apos;s lifetime, which ones reuse storage, and where the peak is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The compile failed: it has no memory plan.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The memory plan appears when the compile has generated its code.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This compile has no memory plan (an engine from before plans).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No memory plan: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fetching %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be shown: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No memory plan.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Peak&lt;/b&gt;: %1 predicted by Inductor; %2 planned (what the generated code allocates, reused storage counted once)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights and constants: %1, held for the whole run (not in the curves).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured peak: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Partial&lt;/b&gt;: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bars: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reuses a freed buffer&apos;s storage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>returned by an extern call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no storage of its own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 – end (output)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Written by %1, last read by %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the caller</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>predicted (Inductor)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>planned (allocated by the code)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step (kernel order)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Buffers</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::NodeTableModel</name>
    <message>
        <source>Node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source line</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::PipelineModel</name>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Δ nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This pass ran and left the graph unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scheduler fusion: %1 nodes before, %2 after.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n generated kernel(s) and library calls.</source>
        <translation>
            <numerusform>%n generated kernel and library calls.</numerusform>
            <numerusform>%n generated kernels and library calls.</numerusform>
        </translation>
    </message>
    <message>
        <source>No snapshot was written (snapshots were off).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stage the job is running now; its passes appear as they finish.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unattributed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C++ build (compiler, linker)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lowering, codegen, packaging</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rest of the stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine time no stage claims: from receiving the request to sending its result, less the stages&apos; times (waiting in the queue, writing the result files).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wall time of the native compiler and linker Inductor ran to build the package.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The compile stage&apos;s time outside its passes and the C++ build: Inductor&apos;s lowering, scheduling and fusion, code generation and writing the package.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stage&apos;s time outside the rows above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole stage: no pass of it is listed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decompose</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>load package</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>measure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reused from the compile cache: this pass ran in an earlier compile of the same program, so it took no time in this job.
%1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::PipelinePanel</name>
    <message>
        <source>Show unchanged passes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also list the passes that ran and left the graph as it was</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 snapshots; %2 passes changed the graph, %3 left it unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No compile yet: open a model and press Compile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stages account for %1 of the engine&apos;s %2 s.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ProfilePanel</name>
    <message>
        <source>Eager (Python)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AOTInductor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NativeRT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Median latency per call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency distribution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak memory per variant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cold start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput and p99 latency against runners</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top kernels by total time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernels of:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cold start &amp;&amp; throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
kind %2 · %3 calls
total %4, mean %5 · %6 of wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>covers %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grid %1, block %2, %3 registers, stream %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No profile yet: run Profile (or Compile) to measure the model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: no profile result.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: a compile result has only latency. Run Profile for memory, kernels, the timeline, cold start and throughput.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2 · %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 not available: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collector %1, its overhead: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collector %1 did not start: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: no variant has a latency.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
not available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p90 %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p99 %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: median %2
p10 %3, p90 %4, p99 %5
mean %6 ± %7, %8 runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>traced median %1 (collector overhead %2%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA events: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, collector on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: no variant has latency percentiles.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms per call (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency distribution: box p10–p90, whiskers min–p99, ○ max; pale: collector on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency distribution: box p10–p90, whiskers min–p99, ○ max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1%2
min %3, p10 %4, median %5
p90 %6, p99 %7, max %8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (collector on)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak bytes in use above the level before the call (%1) · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: peak %2 (%L3 bytes)
method %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: no variant has a peak memory figure.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU: not measured (a CPU profile).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;GPU busy&lt;/b&gt; (kernel time over wall time): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1%2: %3× %4 in %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>⚠ %n activity record(s) dropped by CUPTI</source>
        <translation>
            <numerusform>⚠ %n activity record dropped by CUPTI</numerusform>
            <numerusform>⚠ %n activity records dropped by CUPTI</numerusform>
        </translation>
    </message>
    <message>
        <source>Not measured: the collector did not start (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: the profile has no trace (it ran with trace off).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not available: the trace %1 cannot be read (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: the trace %1 has no ranges.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: ATen ops</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: the profile has no kernel ranges (the collector was off).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: no kernels for %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total time in the traced pass (ms) · share of the variant&apos;s wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top kernels by total time: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cold start not measured: skipped (cold_start_runs 0) or aotstudio-run was not found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package
(aotstudio-run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager
(Python)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Fresh process to first output (ms, median of %n run(s))</source>
        <translation>
            <numerusform>Fresh process to first output (ms, median of %n run)</numerusform>
            <numerusform>Fresh process to first output (ms, median of %n runs)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2
%3 of %4 runs succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package (aotstudio-run, no Python)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager (import torch, build, run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput not measured (throughput: []).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>calls/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p99 latency (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runners (threads calling the package at once)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput (calls/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p99 latency per call (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n runner(s), %1 threads
%2 calls/s
median %3, p99 %4</source>
        <translation>
            <numerusform>%n runner, %1 threads
%2 calls/s
median %3, p99 %4</numerusform>
            <numerusform>%n runners, %1 threads
%2 calls/s
median %3, p99 %4</numerusform>
        </translation>
    </message>
    <message>
        <source>profiled at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 the speed of eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measurement: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1
%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cold start: eager / bundle %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spawn to main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bundle
(aotstudio-run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Fresh process to first output (ms, medians of %n run(s); whiskers: 95% CI)</source>
        <translation>
            <numerusform>Fresh process to first output (ms, medians of %n run; whiskers: 95% CI)</numerusform>
            <numerusform>Fresh process to first output (ms, medians of %n runs; whiskers: 95% CI)</numerusform>
        </translation>
    </message>
    <message>
        <source>Eager (import torch, build, run): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other (outside the runtime&apos;s phases); the bundle&apos;s median total is %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1: %2
median of %n run(s)</source>
        <translation>
            <numerusform>%1: %2
median of %n run</numerusform>
            <numerusform>%1: %2
median of %n runs</numerusform>
        </translation>
    </message>
    <message>
        <source>phases: %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>traced / untraced %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ time lost between calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ calls/s disagrees with the mean latency: time went somewhere between calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>calls/s 95% interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The profile result cannot be shown: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>worker isolation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>request isolation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spawn baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warm workers that keep the package loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a worker forked per request from the prepared server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a fresh aotstudio-run process per request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Burst replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Burst replay not measured: not asked for (Run Settings → Burst replay rates is empty).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Burst replay not measured: aotstudio-run answered no rate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At %1 requests/s: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saturated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Burst replay not measured: no request was answered (see the profile&apos;s warnings).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Offered arrival rate (requests/s, Poisson)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency, arrival to answer (ms, log): p50, whisker to p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency, arrival to answer (ms): p50, whisker to p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Burst replay: %1 s of arrivals per rate, %n worker(s); hollow: saturated</source>
        <translation>
            <numerusform>Burst replay: %1 s of arrivals per rate, %n worker; hollow: saturated</numerusform>
            <numerusform>Burst replay: %1 s of arrivals per rate, %n workers; hollow: saturated</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (no interval)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (95% CI %2–%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2) at %3 requests/s (the trace offered %4/s)
p50 %5
p99 %6
throughput %7 answers/s; CPU busy %8
%9 of %10 answered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saturated: answered %1/s of the %2/s offered (below %3 of it); its queue grew for the whole run, so its latency measures the trace&apos;s length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Python eager server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>resident Python processes running the eager model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / this mode, median latency: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / this mode: not comparable (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU busy %1 (NVML)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU busy not measured: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms per call
bar median, whiskers p10–p90, ◆ p99</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::QuantizationPanel</name>
    <message>
        <source>unsupported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency against accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Median latency per scheme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak memory per scheme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package size per scheme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 − cosine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accuracy against fp32 eager on the evaluation set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accuracy:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency vs accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2
eager %3, compiled %4
peak memory: eager %5, compiled %6
package %7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No quantization result yet: run Quantize to compare schemes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-layer error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: no quantization result.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2 · baseline %3 · calibration %4 samples, evaluation %5 samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No scheme within max abs error %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>★ Best within max abs error %1: &lt;b&gt;%2&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-layer error of %1: not measured (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-layer error of %1: no quantized layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Per-layer error of %1 (%n layer(s), each against its fp32 layer on the same input)</source>
        <translation>
            <numerusform>Per-layer error of %1 (%n layer, each against its fp32 layer on the same input)</numerusform>
            <numerusform>Per-layer error of %1 (%n layers, each against its fp32 layer on the same input)</numerusform>
        </translation>
    </message>
    <message>
        <source>★ %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: the result lists no schemes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: no scheme ran (see the table for the reasons).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Median latency per call (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak memory of one forward above resident (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: every peak memory figure is 0 bytes, below what the method (%1) resolves.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: the result has no peak memory figures.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package size on disk (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: the result has no package sizes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not measured: no scheme has both a compiled latency and an accuracy figure.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 − cosine against fp32 eager (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error against fp32 eager (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled median latency (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled median latency (ms, log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (error 0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max error %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
compiled median %2
max abs error %3
cosine %4
%5 vs fp32 eager
measurement %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads: %1 · Measurements: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 in %n row(s)</source>
        <translation>
            <numerusform>%1 in %n row</numerusform>
            <numerusform>%1 in %n rows</numerusform>
        </translation>
    </message>
    <message>
        <source>%1
(unreliable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Median latency per call (ms); grey: unreliable measurement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (unreliable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The quantization result cannot be shown: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The schemes ran on several hosts of the Ray cluster %1: compare them by “vs fp32 eager”, a ratio each row took on its own host; their medians are not comparable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup over fp32 eager, each on its own host (×)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup over fp32 eager, each on its own host (×, log)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::RecipeText</name>
    <message>
        <source>chosen by the rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chosen by a timed probe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as requested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ReportWriter</name>
    <message>
        <source>%1 already exists; choose a new folder name for the report.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create %1: check that the folder is writable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Written by AOT Studio %1 on %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the chart %1 into %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1 into %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write index.html into %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot move the report into place at %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ResultPanel</name>
    <message>
        <source>No result yet.

Pick a model and a device in the toolbar, then press Compile (Ctrl+R).
The package path, accuracy and latency of the compiled model will appear here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the result as text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Torch version:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager median:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled median:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timed runs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (tolerance %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms (p10 %2, p90 %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 was cancelled.&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Compiling %1 failed&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in stage &lt;i&gt;%1&lt;/i&gt; (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hint: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>eager %1, compiled %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Warning:&lt;/b&gt; %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bundle exported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bundle:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zip:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Buckets:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cold start:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Manifest: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dynamic %1–%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>batch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bundle %1 ms vs eager %2 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wall time of a fresh process from spawn to its first output, median of %1 runs each: the bundle with aotstudio-run, the model in eager PyTorch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing the bundle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Exporting %1 was cancelled.&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Exporting %1 failed&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spawn to main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measurement:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Intra-op threads of eager and compiled alike</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured by:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bundle phases:</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Ratio of the eager median to the compiled median; %1 over %n paired block(s), %2 resamples</source>
        <translation>
            <numerusform>Ratio of the eager median to the compiled median; %1 over %n paired block, %2 resamples</numerusform>
            <numerusform>Ratio of the eager median to the compiled median; %1 over %n paired blocks, %2 resamples</numerusform>
        </translation>
    </message>
    <message>
        <source>interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This result predates paired timing: it has no interval.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile at %1 (it supersedes the compile&apos;s quick measurement)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile (it supersedes the compile&apos;s quick measurement)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile (its quick measurement)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not measured (an older result)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>eager / bundle %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verification:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verified as:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verified on:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stateful:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whether forward() changes a buffer of the model (e.g. a running statistic): then eager and the package are checked to advance alike</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inputs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The package&apos;s inputs in its order: names from forward&apos;s parameters and their place in nested arguments (--dynamic takes these names)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regional compile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Blocks:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile time:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export and compile, in seconds; one compile each, so no interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency (median):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regional vs eager:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager median over the regional model&apos;s median, paired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regional vs whole:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole package&apos;s median over the regional model&apos;s, paired: above 1 the regional model is faster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Block class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instances</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters each</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile time (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export and compile of the block&apos;s first instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The block&apos;s package, without weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled %1 regionally</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none of the whole model: one per block class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none of the whole model: one per block class in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot be shown: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>export %1 s, compile %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n block class(es)</source>
        <translation>
            <numerusform>%n block class</numerusform>
            <numerusform>%n block classes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n instance(s)</source>
        <translation>
            <numerusform>%n instance</numerusform>
            <numerusform>%n instances</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2, holding %3% of the parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Block packages in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>regional %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>regional %1 s, whole %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>regional / whole %1× (one compile each: no interval)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>eager %1, regional %2, whole %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>eager %1, regional %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>blocks %1 (no weights), whole %2 (with weights)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>blocks %1 (no weights)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regional median:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU architectures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cold start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>requests per worker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no SASS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no PTX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PTX %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dynamic shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>static shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>runtime %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Built for:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preflight:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compatibility key: %1
Every runtime checks it before loading the bundle and refuses another torch, machine, CPU or GPU architecture.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not recorded (an older engine)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>runs there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>does not run there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not fully known</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>aotstudio-cli preflight BUNDLE --gpu PROFILE checks other GPUs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not made (an older engine)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot be made: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU worker:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the bundle folder in the file manager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the bundle against another GPU worker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundle is on the engine&apos;s machine: aotstudio-cli preflight BUNDLE --gpu PROFILE checks it there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bundle %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In your code (innermost last):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1:%2, in %3</source>
        <extracomment>a traceback frame: %1 file name, %2 line, %3 function</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, line %2:</source>
        <translation></translation>
    </message>
    <message>
        <source>Recipe:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::RunSettingsDialog</name>
    <message>
        <source>Freezing (fold weights into constants)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max-autotune (benchmark kernel choices; slow compile)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bfloat16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs a CUDA GPU of compute capability 8.9 or newer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runner counts for the throughput test, comma-separated; empty skips it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data type:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dynamic dimensions:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warm-up runs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Most timed runs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time cap per variant:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput runners:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cold-start runs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantize</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schemes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calibration samples:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluation samples:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max error for “best”:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 0:0:1:64 (input 0, dimension 0, from 1 to 64)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all usable CPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Intra-op threads for eager and compiled alike; the engine refuses more than the CPUs it may use (affinity and cgroup quota) and records the count in every result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. {&quot;epilogue_fusion&quot;: false}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Further Inductor options of a compile as a JSON object (torch._inductor.config keys, dotted, to values); a tune&apos;s “Use this recipe” fills it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inductor options:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset Shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the model&apos;s own example shapes again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model&apos;s own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Example input shapes of %1 (Model → Inputs… edits them)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input shapes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: run everything in the engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HOST:PORT of a Ray cluster&apos;s head (what “ray start --head” printed). Quantize schemes, export buckets, tune trials and sweep shards then run there as Ray tasks, each in an engine on a worker node with the same torch; results come back into the job folder. Rows measured on different hosts are never put into one ratio.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ray cluster:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not HOST:PORT (e.g. 10.0.0.5:6379)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty: skip (e.g. 5, 20, 50)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arrival rates for the burst replay after cold start, comma-separated: at each rate aotstudio-run serves a Poisson trace with warm workers, with a fresh worker per request and with a fresh process per request; empty skips it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seconds of arrivals per rate; every request is answered, so a saturated mode takes longer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Burst replay rates (requests/s):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seconds per replay rate:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a model first: dynamic dimensions are kept per model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dynamic dimensions of %1 for torch.export, comma-separated: INPUT:DIM or INPUT:DIM:MIN:MAX, each optionally =NAME; one name ties dimensions of several inputs (0:0=batch, 1:0=batch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regional compile (each repeated block compiled once, weights bound at run time)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also compile the whole model to compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile finds the model&apos;s repeated blocks (e.g. transformer layers), compiles one package without weights per block class and runs every instance on it with its own weights: a shorter compile than the whole model&apos;s. Profile, Quantize, Export and Tune always compile the whole model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiles the whole model too and times it against the model with compiled blocks: compile time and latency of both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto (chosen per model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AOTInductor defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Freezing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max-autotune</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto picks the recipe from the exported graph (on the CPU: freezing when convolutions carry most of the work) and the result says which and why; the boxes below add to any recipe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recipe:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SchemeTableModel</name>
    <message>
        <source>%1 (stage %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>★ best</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unsupported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the fastest scheme with a max abs error within %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package %1, eager %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding cosine %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantized ops: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak memory of one forward of the package above what was resident before it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The package&apos;s outputs against fp32 eager on the evaluation set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>vs fp32 eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fp32 eager %1 ms over this scheme&apos;s compiled %2 ms
this scheme&apos;s own eager / compiled: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fp32 eager median over this scheme&apos;s compiled median, with its 95% confidence interval over the paired blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whether the machine allowed a fair measurement of this row (ok, noisy, unreliable, unknown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measurement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each output against fp32 eager:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: max abs %2, cosine %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the highest speedup over fp32 eager (each on its own host) with a max abs error within %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ray node %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The host and device this row was measured on; rows of different hosts are compared by their own speedup over fp32 eager, never by their medians</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SelectionHub</name>
    <message>
        <source>No snapshot file for %1 (snapshots were off).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fetching %1 from the engine…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The snapshot cannot be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SessionController</name>
    <message>
        <source>AOT Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This session is not being recorded: cannot write %1 (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not open the session: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AOT Studio — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Opened the session %1 (%n job(s)).</source>
        <translation>
            <numerusform>Opened the session %1 (%n job).</numerusform>
            <numerusform>Opened the session %1 (%n jobs).</numerusform>
        </translation>
    </message>
    <message>
        <source>Opened the session %1 with problems: see the log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AOT Studio sessions (*.aotsession)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving the session failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved the session to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved the session to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Session As (a new folder)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Job Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened the job folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the bundle %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened the bundle %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Job Folder (numerics.json, tune.json, or a bundle&apos;s manifest.json)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SessionReport</name>
    <message>
        <source>AOT Studio report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile at %1 (it supersedes the compile&apos;s quick measurement)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile (it supersedes the compile&apos;s quick measurement)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile (its quick measurement)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager median</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled median</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measurement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verification</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verified as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verified on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stateful</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last compile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed verification: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cold start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bundle %1 ms vs eager %2 ms: eager / bundle %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spawn to main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cold start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verification per output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed verification per output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantization schemes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SweepPanel</name>
    <message>
        <source>&lt;span style=&apos;color:#2e7d32&apos;&gt;■&lt;/span&gt; matched eager &amp;nbsp; &lt;span style=&apos;color:#78909c&apos;&gt;■&lt;/span&gt; refused outside the range (hatched: outside) &amp;nbsp; &lt;span style=&apos;color:#f9a825&apos;&gt;■&lt;/span&gt; eager itself fails &amp;nbsp; &lt;span style=&apos;color:#c62828&apos;&gt;■&lt;/span&gt; not what the guards promise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sweep yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweep of %1 on %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bucket %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 padded to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>batch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bucket policy:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Guards: %1 (from %2); %3 shapes: %4 varying one dimension, %5 pairwise, %6 left out</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SweepPointModel</name>
    <message>
        <source>matched eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>differs from eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>eager itself fails (the model&apos;s own)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refused inside the range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refused (outside the range)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ran although outside the range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the package raised</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>crashed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hung (killed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inputs %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chosen as: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the guards accept it: it must match eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the guards refuse it: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(max abs error %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OK</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chosen as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SweepView</name>
    <message>
        <source>static shapes (no dynamic dimension)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: range %2, example %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>relations between dimensions, broken on purpose</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 × %2 together</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sweep yet: Engine → Sweep Shapes verifies the last compiled package across its shapes.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::TableCopy</name>
    <message>
        <source>Copy Rows</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ThroughputModel</name>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls per second agree with this runner&apos;s own latency.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checked for one runner only (several runners share the CPUs).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Torch intra-op threads of each runner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whether calls per second agree with the runner&apos;s own latency (one runner only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runners</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads each</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Median</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Consistent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1× (baseline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls ending inside the counted windows per second, with the 95% interval of the per-window rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls/s over one runner&apos;s, windows paired by round, with its 95% interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>vs 1 runner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls per second do not agree with this runner&apos;s own latency: its calls run back to back, so the rate should be 1000 / mean latency (within 10%); time went somewhere between calls.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected %1 calls/s, measured %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::TimelineChart</name>
    <message>
        <source>covers %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>process %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>thread %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel timeline per stream and thread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom to the traced calls of one variant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag to pan, wheel to zoom, click a range to select its kernel.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time from the start of the traced pass (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All variants</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
%2 · %3
start %4 ms, duration %5 µs
%6</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::TrustDialog</name>
    <message>
        <source>Load a bundle nobody you trust signed?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine on %1 did not load the bundle %2:

%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading a bundle runs the native code of its packages inside the engine, with your rights on %1. Load it only if you know who made it. To trust its signer for good, add their public key to the engine&apos;s trust store ($AOTSTUDIO_TRUST).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load Anyway</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::TunePanel</name>
    <message>
        <source>Latency against error: the Pareto front</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use This Recipe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Recipe…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The next compile uses the selected trial&apos;s options: freezing, max-autotune, dtype and Inductor options (Run Settings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the selected trial&apos;s options as recipe.json, for aotstudio-cli compile --recipe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 ms, max abs error %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 on %2, %3: %n trial(s)</source>
        <translation>
            <numerusform>%1 on %2, %3: %n trial</numerusform>
            <numerusform>%1 on %2, %3: %n trials</numerusform>
        </translation>
    </message>
    <message>
        <source>no recipe qualified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recipe: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>measurement: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a trial that compiled (not a baseline) first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Recipe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recipes (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The recipe was not saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Median latency (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error against eager (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (error 0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No tune yet: Engine → Tune Compile Recipe… runs one; a folder of aotstudio-cli tune --out DIR opens with File → Open Job Folder….</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::TuneTableModel</name>
    <message>
        <source>The defaults trial&apos;s median over this one&apos;s (&gt; 1: faster), with the 95% interval of the paired measurement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (baseline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (recipe)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1× (reference)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1×</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1× (%2–%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trial</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Median (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>vs defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pareto</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::VerifyOutputModel</name>
    <message>
        <source>passed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the tolerance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The compiled output is at most %1 further from the %2 reference than eager is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The compiled output is more than %1 further from the %2 reference than eager is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>higher-precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error against eager within %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error against eager above %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error against the %1 reference (the same model and inputs in higher precision)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |compiled − eager| / max(|eager|, 1e-12)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cosine similarity of compiled and eager (the smallest over the calls)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max rel error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error of the package against the higher-precision reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs error of eager against the higher-precision reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled vs ref.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager vs ref.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::VerifyText</name>
    <message>
        <source>failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>see the error</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>passed (reduced precision): against the %1 reference the package is off by %2 and eager by %3 (tolerance %4 on the difference), %n output(s)</source>
        <translation>
            <numerusform>passed (reduced precision): against the %1 reference the package is off by %2 and eager by %3 (tolerance %4 on the difference), %n output</numerusform>
            <numerusform>passed (reduced precision): against the %1 reference the package is off by %2 and eager by %3 (tolerance %4 on the difference), %n outputs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>passed: %n output(s) within %1 of eager (largest %2)</source>
        <translation>
            <numerusform>passed: %n output within %1 of eager (largest %2)</numerusform>
            <numerusform>passed: %n outputs within %1 of eager (largest %2)</numerusform>
        </translation>
    </message>
    <message>
        <source>reduced precision: compiled and eager against a %1 reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reduced precision without a reference: compiled against eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reduced precision without a reference (%1): compiled against eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compiled against eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>the example input and %n seeded input(s)</source>
        <translation>
            <numerusform>the example input and %n seeded input</numerusform>
            <numerusform>the example input and %n seeded inputs</numerusform>
        </translation>
    </message>
    <message>
        <source>the example input only</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>(%n call(s))</source>
        <translation>
            <numerusform>(%n call)</numerusform>
            <numerusform>(%n calls)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n seeded input(s) skipped: eager itself raised on them</source>
        <translation>
            <numerusform>%n seeded input skipped: eager itself raised on it</numerusform>
            <numerusform>%n seeded inputs skipped: eager itself raised on them</numerusform>
        </translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes: forward() changes a buffer; both sides were checked to advance alike</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes: forward() updates %1; both sides were checked to advance alike</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n output(s) failed verification: %1</source>
        <translation>
            <numerusform>%n output failed verification: %1</numerusform>
            <numerusform>%n outputs failed verification: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>compared: %n output(s) with the scheme&apos;s eager model, largest difference %1 (no tolerance)</source>
        <translation>
            <numerusform>compared: %n output with the scheme&apos;s eager model, largest difference %1 (no tolerance)</numerusform>
            <numerusform>compared: %n outputs with the scheme&apos;s eager model, largest difference %1 (no tolerance)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EngineMessage</name>
    <message>
        <source>model file &apos;{path}&apos; does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>choose an existing model file with Model → Open factory…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give the path of a file written by torch.export.save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>importing &apos;{path}&apos; raised {error} at {location}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fix the error in the model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;{path}&apos; has no callable &apos;{name}&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name a function that returns (model, example_inputs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>factory &apos;{name}&apos; in &apos;{path}&apos; raised {error} at {location}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fix the factory; it must return (model, example_inputs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;{path}&apos; is not a .pt2 archive (truncated or not a zip file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>re-save it with torch.export.save; a partly copied file is truncated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;{path}&apos; is an AOTInductor package (compiled code), not an ExportedProgram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give the model&apos;s factory or a torch.export.save file; a compiled package cannot be compiled again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;{path}&apos; is not a loadable ExportedProgram: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>re-save it with torch.export.save from the same torch version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;{path}&apos; carries no example inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>save it with torch.export.save from torch 2.6 or newer, which stores them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown sample &apos;{name}&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>choose one of {known}, or open a model file with Model → Open factory…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sample &apos;{name}&apos; needs {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run tools/setup.sh to install the pinned Python packages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;{spec}&apos; names a file but no factory function</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add the function that returns (model, example_inputs): {spec}:make</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read model spec &apos;{spec}&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>choose one of {known}, or open a model file (path/to/file.py:factory or a torch.export.save .pt2) with Model → Open factory…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;{spec}&apos; did not return (model, example_inputs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;{spec}&apos; returned a {type} as the model, not a torch.nn.Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>return (model, args), (model, args, dynamic_shapes) or a dict with keys model, args, kwargs, dynamic_shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled during &apos;{stage}&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled while Inductor was compiling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled while measuring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled while measuring {scheme}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled before it started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>oversubscribed: on average {others:.1f} other runnable tasks competed for the {usable:d} usable CPUs while timing with {threads:d} threads; each takes a CPU from one of the threads and the rest wait for it, so timings are inflated by an unknown factor. Rerun on an idle machine, or with fewer threads (Run Settings → Threads)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>busy machine: on average {others:.1f} other runnable tasks for the {free:d} CPUs left free by {threads:d} threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the engine&apos;s threads spent {share:.0f}% of their runnable time waiting for a CPU ({waited:.0f} ms waiting, {ran:.0f} ms running; /proc/self/task/*/schedstat): other processes took the CPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the hypervisor gave {share:.1f}% of the CPU time to other guests (steal in /proc/stat)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the CPU was thermally throttled {count:d} times while timing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{variant} timings are spread out (p10 {p10:.4g} ms, median {median:.4g} ms, p90 {p90:.4g} ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a ratio&apos;s 95% interval is {width:.0f}% of its value wide: more runs or a quieter machine would narrow it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>neither /proc/stat (procs_running) nor /proc/self/task/*/schedstat could be read: whether other processes competed for the CPUs is unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>procs_running counts all {online:d} CPUs of the host and this process may use {usable:d}: the load is judged by run delay only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU frequency scaling governor is &apos;{governor}&apos; (not &apos;performance&apos;); pairing the variants cancels slow frequency drift</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU frequency governor not readable (common in VMs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>thermal throttling counters not readable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forward() uses a tensor&apos;s value as a Python value (an if on it, .item(), a size or index taken from data): use torch.cond or torch.where instead of a Python if, torch._check() to state what the value may be, or make the value static</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forward() uses an op or Python feature torch.export cannot capture; see the log for torch&apos;s message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a dimension marked dynamic was specialised to a constant; check the dynamic shape spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>see the engine log for torch&apos;s full message; torch.export.draft_export() lists every problem at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inductor has no lowering for an op in the graph (named above): rewrite that part of forward, or report it to PyTorch with the op and the graph node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the generated C++ did not compile (see the log for the compiler&apos;s message); report it with the op named above</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>see the log for the op and node; if the op is CUDA-only, check the CUDA toolkit and driver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>see the log for the op and the graph node Inductor was lowering; report it with that op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ended {tool} (pid {pid:d}), a native build the cancelled job started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reused the package of an earlier compile with the same graph, weights, inputs and options (compile cache entry {key}): Inductor did not run, about {seconds:.1f} s saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compile cache entry {key} is damaged ({problem}): removed, compiling from scratch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compile cache entry {key} could not be read ({error}): compiling from scratch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not keep this compile in the compile cache ({error}); the compile itself is unaffected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the compile cache is off for this compile: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ccache is not installed: Inductor&apos;s generated C++ is built from scratch on every compile (tools/setup.sh installs ccache)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ccache is not used for this compile: its compiler wrapper could not be written ({error})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ccache: {hits:d} of {calls:d} C++ compiles reused ({uncacheable:d} links and probes are never cached)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA was requested but no CUDA device is available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>choose CPU in the toolbar&apos;s Device selector, or connect to an engine on a machine with an NVIDIA GPU and driver (Engine → Connect to Remote Engine…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give the missing arguments in the factory (return a dict with args and kwargs), or compile a sub-module that takes these inputs alone: write it after the model in the Model box as SPEC#PATH ({modules})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a dynamic dimension names the input &apos;{index}&apos;, which the model does not have; its inputs: {inputs} (Model → Inputs… lists them)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model&apos;s code fixes these sizes (a view/reshape to a constant, a comparison with a constant): make the code size-generic, or make the dimension static again in Model → Inputs…; for a size of 0 or 1 give an example of size &gt;= 2, and for a multiple use a derived Dim (2*Dim(&apos;n&apos;, min=1, max=32)) in the factory&apos;s dynamic_shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the graph holds {count:d} quantize/dequantize nodes (a PT2E-quantized model): freezing is on, as Inductor lowers them to quantized kernels only when the weights are frozen (turning Freezing off in Run Settings… keeps it off)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the graph holds {count:d} quantize/dequantize nodes but freezing is off: Inductor will dequantize the weights and compute in fp32; turn Freezing on in Run Settings…</source>
        <translation></translation>
    </message>
    <message>
        <source>convolutions are {share:.0f}% of the graph&apos;s {gflops:.3g} GFLOP ({convs:d} convolutions) on the CPU: freezing folds batch norms into them and pre-packs their weights for oneDNN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>convolutions are {share:.0f}% of the graph&apos;s {gflops:.3g} GFLOP on the CPU (freezing from {threshold:.0f}%): AOTInductor&apos;s defaults, as freezing makes matrix multiplies oneDNN calls that are slower at these sizes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the graph has no convolution or matrix multiply: AOTInductor&apos;s defaults (freezing has nothing to pack)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no recipe rule is measured on {device} yet: AOTInductor&apos;s defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>named by the request (recipe {name})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the request sets {fields} itself (command-line flags or a recipe file), so no recipe is chosen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a quantized model: freezing follows its quantization (on for quantize/dequantize nodes and int8-static), so no recipe is chosen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>freezing keeps the weights ({mb:.3g} MB) inside each package as packed constants, not shared: {buckets:d} bucket(s) hold {extra_mb:.3g} MB more than one shared copy, on disk and in memory once all are loaded</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>AOT Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AOT Studio: compile PyTorch models ahead of time with AOTInductor.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model to select: sample:NAME or file.py:factory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device to select: cpu or cuda.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output folder for the job.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dir</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start compiling as soon as the engine is ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After the first result or error, save the window as PNG to FILE and quit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --screenshot: take it after this many milliseconds at the latest.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interface language: en or zh_CN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--screenshot-after-ms needs a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>aotstudio: language &quot;%1&quot; is not available, using English. Available languages: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown device &quot;%1&quot;: use cpu or cuda.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give at most one session file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the engine on another machine: &quot;ssh [-p PORT] [-i KEY] [USER@]HOST PATH-OF-aotstudio-engine --serve [--jobs DIR]&quot; (as Engine → Connect…).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--engine takes an ssh command: &quot;ssh [-p PORT] [USER@]HOST PATH-OF-aotstudio-engine --serve&quot;, not &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A saved session (.aotsession), or a job folder of aotstudio-cli numerics or tune, to open without running anything.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bring this dock to the front at start: graph, kernels, memory, profile, quantization, sweep or tune.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run jobs in the engine of this target environment (aotstudio-cli target list names them; &quot;&quot; for the studio&apos;s own), as the Target selector.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>

<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>AotStudio::Client::EngineClient</name>
    <message>
        <source>The engine was not found: looked for %1 and for %2 on PATH. Set AOTSTUDIO_ENGINE to its path.</source>
        <translation type="unfinished"></translation>
    </message>
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
</context>
<context>
    <name>AotStudio::Widgets::MainWindow</name>
    <message>
        <source>AOT Studio</source>
        <translation type="unfinished"></translation>
    </message>
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
        <source>sample:NAME, or path/to/file.py:factory</source>
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
        <source>The language will change the next time AOT Studio starts.</source>
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
        <source>Restarting the engine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a model first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the output folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiling %1 on %2 into %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling…</source>
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
        <source>Done</source>
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
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile failed</source>
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
        <source>The engine stopped during this job.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiling %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA was requested, but the engine reports no CUDA device (torch %1, CUDA %2). Nothing was compiled; choose CPU to compile on the CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: done in %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snapshot %1: %2 nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiling %1 was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiling %1 failed: %2</source>
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
        <source>&amp;Export Bundle…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package the last compile&apos;s model as a bundle of batch-size packages (Ctrl+E)</source>
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
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export · %1</source>
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
        <source>Exporting the bundle %1 was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting the bundle %1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
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
        <source>%1×</source>
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
        <source>(%1×)</source>
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
</context>
</TS>

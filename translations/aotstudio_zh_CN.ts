<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AotStudio::Client::ArtifactStore</name>
    <message>
        <source>the engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <source>%1 cannot be read here and this session has no cache folder.</source>
        <translation>%1 无法在本机读取，且此会话没有缓存文件夹。</translation>
    </message>
    <message>
        <source>%1 is not in this session&apos;s cache and no engine is connected: connect to %2 to fetch it.</source>
        <translation>%1 不在此会话的缓存中，且未连接引擎：请连接到 %2 以获取它。</translation>
    </message>
    <message>
        <source>%1: fetching %2 timed out after %3 s.</source>
        <translation>%1：获取 %2 在 %3 秒后超时。</translation>
    </message>
    <message>
        <source>%1: fetching %2 failed: the engine is not connected.</source>
        <translation>%1：获取 %2 失败：引擎未连接。</translation>
    </message>
    <message>
        <source>%1: fetching %2 failed: %3</source>
        <translation>%1：获取 %2 失败：%3</translation>
    </message>
    <message>
        <source>a slice arrived damaged or out of order.</source>
        <translation>收到的数据分片已损坏或顺序错乱。</translation>
    </message>
    <message>
        <source>cannot create the cache folder %1.</source>
        <translation>无法创建缓存文件夹 %1。</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>the file changed on the engine&apos;s machine while it was read.</source>
        <translation>读取期间该文件在引擎所在机器上发生了变化。</translation>
    </message>
    <message>
        <source>its SHA-256 does not match the engine&apos;s (the file changed or was damaged on the way); nothing was kept.</source>
        <translation>其 SHA-256 与引擎给出的不一致（文件已改变或在传输中损坏）；未保留任何内容。</translation>
    </message>
    <message>
        <source>%1: fetching %2 failed: %3 The transfer stopped at byte %4 of %5 and the engine did not come back within %6 s; nothing was kept.</source>
        <translation>%1：获取 %2 失败：%3 传输在第 %4 字节处中断（总大小：%5），且引擎未在 %6 秒内恢复连接；未保留任何内容。</translation>
    </message>
    <message>
        <source>an unknown size</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>AotStudio::Client::EngineClient</name>
    <message>
        <source>The engine was not found at %1.</source>
        <translation>在 %1 未找到引擎。</translation>
    </message>
    <message>
        <source>Cancelled before it started.</source>
        <translation>在开始之前已取消。</translation>
    </message>
    <message>
        <source>Cancelled. The engine did not stop within %1 s, so it was restarted.</source>
        <translation>已取消。引擎未在 %1 秒内停止，因此已将其重启。</translation>
    </message>
    <message>
        <source>Results received earlier are kept.</source>
        <translation>之前收到的结果会保留。</translation>
    </message>
    <message>
        <source>Protocol mismatch: the engine speaks protocol version %1, this studio speaks version %2. Install matching versions of the studio and the engine.</source>
        <translation>协议不匹配：引擎使用协议版本 %1，本工作室使用版本 %2。请安装相互匹配的工作室和引擎版本。</translation>
    </message>
    <message>
        <source>The engine crashed.</source>
        <translation>引擎已崩溃。</translation>
    </message>
    <message>
        <source>The engine exited unexpectedly with code %1.</source>
        <translation>引擎意外退出，退出码为 %1。</translation>
    </message>
    <message>
        <source>Its last message: %1</source>
        <translation>其最后一条消息：%1</translation>
    </message>
    <message>
        <source>The engine was stopped before this job ended.</source>
        <translation>引擎在此任务结束前已被停止。</translation>
    </message>
    <message>
        <source>Run the job again.</source>
        <translation>请重新运行该任务。</translation>
    </message>
    <message>
        <source>Restart the engine and run the job again.</source>
        <translation>请重启引擎并重新运行该任务。</translation>
    </message>
    <message>
        <source>Cannot start the engine %1: %2</source>
        <translation>无法启动引擎 %1：%2</translation>
    </message>
    <message>
        <source>The engine sent a line longer than %1 MiB, the protocol&apos;s limit; it was skipped.</source>
        <translation>引擎发送了一行超过 %1 MiB（协议的上限）的数据，已跳过。</translation>
    </message>
    <message>
        <source>The engine wrote a line longer than %1 MiB to its error output; it was skipped.</source>
        <translation>引擎向其错误输出写入了一行超过 %1 MiB 的数据，已跳过。</translation>
    </message>
    <message>
        <source>%1: connecting failed: the ssh program was not found on PATH. Install OpenSSH&apos;s client.</source>
        <translation>%1：连接失败：在 PATH 中未找到 ssh 程序。请安装 OpenSSH 客户端。</translation>
    </message>
    <message>
        <source>%1: the handshake failed: %2</source>
        <translation>%1：握手失败：%2</translation>
    </message>
    <message>
        <source>The engine was stopped during a transfer.</source>
        <translation>引擎在传输过程中被停止。</translation>
    </message>
    <message>
        <source>Reconnect and open the file again.</source>
        <translation>请重新连接并再次打开该文件。</translation>
    </message>
    <message>
        <source>%1: connecting failed: cannot start ssh: %2</source>
        <translation>%1：连接失败：无法启动 ssh：%2</translation>
    </message>
    <message>
        <source>The engine was not found: looked for %1, for %2 on PATH and for %3. Install it with: %4 (or choose its venv with Engine → Choose Local Engine…, or set AOTSTUDIO_ENGINE to its path).</source>
        <translation>未找到引擎：已查找 %1、PATH 中的 %2 以及 %3。请用以下命令安装：%4（或通过“引擎 → 选择本地引擎…”选择它所在的 venv，或将 AOTSTUDIO_ENGINE 设置为引擎的路径）。</translation>
    </message>
    <message>
        <source>The target environment %1 cannot be started: %2. Choose another target beside Device, or make it with aotstudio-cli target add.</source>
        <translation>无法启动目标环境 %1：%2。请在“设备”旁选择另一个目标，或用 aotstudio-cli target add 创建它。</translation>
    </message>
    <message>
        <source>%1: the connection was lost and the engine that came back does not know job %2 (it keeps no session), so the job is lost. What it sent before the drop is kept.</source>
        <translation>%1：连接已断开，重新连接后的引擎不认识任务 %2（它不保留会话），该任务已丢失。断开前收到的内容会保留。</translation>
    </message>
    <message>
        <source>%1: the connection was lost and the engine was gone when the studio reconnected, so job %2 is lost. The events and files received before the drop are kept; the job&apos;s folder on the host holds no half-written result (jobs write it atomically).</source>
        <translation>%1：连接已断开，重新连接时引擎已不在，任务 %2 已丢失。断开前收到的事件和文件会保留；主机上该任务的文件夹中没有写了一半的结果（任务以原子方式写入）。</translation>
    </message>
    <message>
        <source>%1: events %2 to %3 were no longer in the engine&apos;s replay buffer; the jobs they belonged to may show gaps.</source>
        <translation>%1：事件 %2 到 %3 已不在引擎的重放缓冲区中；相关任务的记录可能有缺口。</translation>
    </message>
    <message>
        <source>%1: the connection was lost; reconnecting in %2 s (attempt %3 of %4).</source>
        <translation>%1：连接已断开；%2 秒后重新连接（第 %3 次，共 %4 次）。</translation>
    </message>
    <message>
        <source>Reconnect; if the engine on the host is still running, run the job again (its folder is written atomically).</source>
        <translation>请重新连接；如果主机上的引擎仍在运行，请重新运行该任务（其文件夹以原子方式写入）。</translation>
    </message>
    <message>
        <source>%1 Reconnecting failed %2 times; the last attempt: %3</source>
        <translation>%1 重新连接失败 %2 次；最后一次：%3</translation>
    </message>
    <message>
        <source>%1 Reconnecting failed: %2</source>
        <translation>%1 重新连接失败：%2</translation>
    </message>
    <message>
        <source>%1: another client attached to this studio&apos;s engine session %2, so the engine let this connection go. Its jobs go on there for that client; this studio does not reconnect, so as not to take the session back.</source>
        <translation>%1：另一个客户端连接到了本工作室的引擎会话 %2，因此引擎断开了此连接。其任务在那里为该客户端继续运行；本工作室不会重新连接，以免再把会话夺回来。</translation>
    </message>
    <message>
        <source>%1: the engine that answered keeps no session (its hello has none), so a dropped connection will end its jobs.</source>
        <translation>%1：应答的引擎不保持会话（其 hello 中没有会话），因此连接断开会结束其任务。</translation>
    </message>
    <message>
        <source>%1: job %2 ended on the host while the connection was down, but its last events (%3 to %4 of the engine&apos;s) were no longer in the engine&apos;s replay buffer, so its result did not arrive. Its folder on the host holds what it wrote.</source>
        <translation>%1：任务 %2 在连接断开期间已在主机上结束，但其最后的事件（引擎的第 %3 至 %4 个）已不在引擎的重放缓冲区中，因此未收到其结果。主机上该任务的文件夹保存了它写出的内容。</translation>
    </message>
    <message>
        <source>%1: job %2 goes on, but some of its events (among the engine&apos;s %3 to %4) were no longer in the engine&apos;s replay buffer when the studio reattached: progress, snapshots or log lines from that time are missing from this session.</source>
        <translation>%1：任务 %2 继续运行，但工作室重新附加时，其部分事件（在引擎的第 %3 至 %4 个之间）已不在引擎的重放缓冲区中：本会话缺少那段时间的进度、快照或日志行。</translation>
    </message>
    <message>
        <source>%1: the engine on the host is older than this studio and has no --session, so it was started without one: a dropped connection will end its jobs. Update the engine on the host to keep jobs running across drops.</source>
        <translation>%1：主机上的引擎比本工作室旧，不支持 --session，因此已在不使用会话的情况下启动：连接断开会结束其任务。请更新主机上的引擎，以便任务在连接断开后继续运行。</translation>
    </message>
    <message>
        <source>Its result is in its folder on the host when it finishes.</source>
        <translation>任务完成后，其结果位于主机上该任务的文件夹中。</translation>
    </message>
</context>
<context>
    <name>AotStudio::Client::KernelCatalog</name>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a kernels.json written by the AOT Studio pipeline</source>
        <translation>%1 不是由 AOT Studio 流水线写入的 kernels.json</translation>
    </message>
</context>
<context>
    <name>AotStudio::Client::RemoteEngine</name>
    <message>
        <source>starting the engine</source>
        <translation>启动引擎</translation>
    </message>
    <message>
        <source>%1 does not exist on the host. Give the full path of aotstudio-engine there.</source>
        <translation>%1 在该主机上不存在。请填写该主机上 aotstudio-engine 的完整路径。</translation>
    </message>
    <message>
        <source>%1 cannot be run on the host (not executable).</source>
        <translation>%1 无法在该主机上运行（不可执行）。</translation>
    </message>
    <message>
        <source>checking the host key</source>
        <translation>检查主机密钥</translation>
    </message>
    <message>
        <source>the host is unknown or its key changed. Connect once with ssh in a terminal to accept its key, then try again.</source>
        <translation>主机未知或其密钥已改变。请先在终端中用 ssh 连接一次以接受其密钥，然后重试。</translation>
    </message>
    <message>
        <source>authenticating</source>
        <translation>身份验证</translation>
    </message>
    <message>
        <source>the host refused the key. Check the user name and the identity file, or load the key into ssh-agent.</source>
        <translation>主机拒绝了该密钥。请检查用户名和身份文件，或将密钥加载到 ssh-agent。</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>no SSH server answered. Check the host name and the port.</source>
        <translation>没有 SSH 服务器响应。请检查主机名和端口。</translation>
    </message>
    <message>
        <source>%1: the connection was lost (ssh exit status %2). Results received so far are kept; reconnect to go on.</source>
        <translation>%1：连接已断开（ssh 退出状态 %2）。已收到的结果会保留；请重新连接以继续。</translation>
    </message>
    <message>
        <source>ssh said: %1</source>
        <translation>ssh 的消息：%1</translation>
    </message>
    <message>
        <source>ssh failed (exit status 255).</source>
        <translation>ssh 失败（退出状态 255）。</translation>
    </message>
    <message>
        <source>the engine exited with status %1 before its handshake.</source>
        <translation>引擎在握手之前以状态 %1 退出。</translation>
    </message>
    <message>
        <source>%1: %2 failed: %3</source>
        <translation>%1：%2失败：%3</translation>
    </message>
</context>
<context>
    <name>AotStudio::Client::Session</name>
    <message>
        <source>Cannot open the session file %1: %2.</source>
        <translation>无法打开会话文件 %1：%2。</translation>
    </message>
    <message>
        <source>%1 is not an AOT Studio session: its first line is not a session header. Open a .aotsession file saved by the studio.</source>
        <translation>%1 不是 AOT Studio 会话：其第一行不是会话头。请打开由 AOT Studio 保存的 .aotsession 文件。</translation>
    </message>
    <message>
        <source>The session file ends in a truncated line (line %1); everything before it was loaded.</source>
        <translation>会话文件以一个被截断的行结束（第 %1 行）；该行之前的内容均已加载。</translation>
    </message>
    <message>
        <source>Line %1 of the session file is not JSON and was skipped.</source>
        <translation>会话文件第 %1 行不是 JSON，已跳过。</translation>
    </message>
    <message>
        <source>%1 was saved in session format version %2; this studio reads versions up to %3. Open it with a newer AOT Studio.</source>
        <translation>%1 以会话格式版本 %2 保存；当前 AOT Studio 最高只能读取版本 %3。请使用更新版本的 AOT Studio 打开。</translation>
    </message>
    <message>
        <source>%1 is empty: it holds no session header.</source>
        <translation>%1 为空：不包含会话头。</translation>
    </message>
    <message>
        <source>%1 exists and is not empty; choose a new folder for the session.</source>
        <translation>%1 已存在且不为空；请为会话选择一个新文件夹。</translation>
    </message>
    <message>
        <source>Cannot create %1: check that the folder is writable.</source>
        <translation>无法创建 %1：请检查该文件夹是否可写。</translation>
    </message>
    <message>
        <source>Cannot copy the job folder %1 into %2.</source>
        <translation>无法将任务文件夹 %1 复制到 %2。</translation>
    </message>
    <message>
        <source>Cannot replace the empty folder %1.</source>
        <translation>无法替换空文件夹 %1。</translation>
    </message>
    <message>
        <source>Cannot move the session into place at %1.</source>
        <translation>无法将会话移动到目标位置 %1。</translation>
    </message>
    <message>
        <source>%1 is larger than %2 MiB, the limit for a session file; it was not read. Is it a session saved by the studio?</source>
        <translation>%1 大于会话文件的上限 %2 MiB，未读取。它是由 AOT Studio 保存的会话吗？</translation>
    </message>
    <message>
        <source>Job %1: %2</source>
        <translation>作业 %1：%2</translation>
    </message>
    <message>
        <source>%1 cannot be opened: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>it holds no numerics.json or tune.json (the folder of aotstudio-cli numerics or tune --out).</source>
        <translation>其中没有 numerics.json 或 tune.json（应为 aotstudio-cli numerics 或 tune 的 --out 文件夹）。</translation>
    </message>
    <message>
        <source>%1 is not a JSON object (%2).</source>
        <translation>%1 不是 JSON 对象（%2）。</translation>
    </message>
    <message>
        <source>%1 Hint: %2</source>
        <translation>%1 提示：%2</translation>
    </message>
</context>
<context>
    <name>AotStudio::Client::StageNames</name>
    <message>
        <source>Loading the model</source>
        <translation>加载模型</translation>
    </message>
    <message>
        <source>Exporting the graph</source>
        <translation>导出计算图</translation>
    </message>
    <message>
        <source>Decomposing to core ATen</source>
        <translation>分解为核心 ATen 算子</translation>
    </message>
    <message>
        <source>Compiling with AOTInductor</source>
        <translation>使用 AOTInductor 编译</translation>
    </message>
    <message>
        <source>Loading the package</source>
        <translation>加载编译包</translation>
    </message>
    <message>
        <source>Verifying outputs</source>
        <translation>验证输出</translation>
    </message>
    <message>
        <source>Measuring latency</source>
        <translation>测量延迟</translation>
    </message>
    <message>
        <source>Measuring cold start</source>
        <translation>测量冷启动</translation>
    </message>
    <message>
        <source>Writing the bundle</source>
        <translation>写入部署包</translation>
    </message>
    <message>
        <source>Running the float64 reference</source>
        <translation>运行 float64 参考</translation>
    </message>
    <message>
        <source>Running eager op by op</source>
        <translation>逐算子运行 eager</translation>
    </message>
    <message>
        <source>Running the compiled graph</source>
        <translation>运行编译后的图</translation>
    </message>
    <message>
        <source>Planning the trials</source>
        <translation>规划试验</translation>
    </message>
    <message>
        <source>Compiling the trials</source>
        <translation>编译各项试验</translation>
    </message>
    <message>
        <source>Compiling the torch.compile baseline</source>
        <translation>编译 torch.compile 基线</translation>
    </message>
    <message>
        <source>Checking recompiles on the workload</source>
        <translation>在工作负载上检查重新编译</translation>
    </message>
    <message>
        <source>Writing the results</source>
        <translation>写入结果</translation>
    </message>
    <message>
        <source>Replaying a burst of requests</source>
        <translation>回放突发请求</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::CaptureDialog</name>
    <message>
        <source>Record</source>
        <translation>录制</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Compile from Capture</source>
        <translation>按捕获结果编译</translation>
    </message>
    <message>
        <source>Export from Capture</source>
        <translation>按捕获结果导出</translation>
    </message>
    <message>
        <source>Capture From Script</source>
        <translation>从脚本捕获</translation>
    </message>
    <message>
        <source>the Python script that serves the model, e.g. app.py</source>
        <translation>提供模型服务的 Python 脚本，例如 app.py</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Script to Run</source>
        <translation>要运行的脚本</translation>
    </message>
    <message>
        <source>Python scripts (*.py);;All files (*)</source>
        <translation>Python 脚本 (*.py);;所有文件 (*)</translation>
    </message>
    <message>
        <source>the script&apos;s arguments, as on a command line</source>
        <translation>脚本的参数，写法与命令行相同</translation>
    </message>
    <message>
        <source>Attribute path</source>
        <translation>属性路径</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类</translation>
    </message>
    <message>
        <source>Attribute path: from a global of the script (model, pipe.unet). Class: the one instance of a qualified class that is called (pkg.mod.Encoder).</source>
        <translation>属性路径：从脚本的某个全局变量出发（model、pipe.unet）。类：被调用的那个限定类的唯一实例（pkg.mod.Encoder）。</translation>
    </message>
    <message>
        <source>model</source>
        <translation>model</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Stop recording after this many calls (the script keeps running)</source>
        <translation>录制到这么多次调用后停止录制（脚本继续运行）</translation>
    </message>
    <message>
        <source>Calls kept per input signature (reservoir-sampled over the run): verify runs the package on them</source>
        <translation>每种输入签名保留的调用数（在整个运行期间蓄水池抽样）：验证时在这些调用上运行编译包</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Stop the script after this many seconds; what was recorded is kept</source>
        <translation>运行这么多秒后停止脚本；已录制的内容会保留</translation>
    </message>
    <message>
        <source>Folder for the Record</source>
        <translation>录制结果文件夹</translation>
    </message>
    <message>
        <source>Script:</source>
        <translation>脚本：</translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation>参数：</translation>
    </message>
    <message>
        <source>Module:</source>
        <translation>模块：</translation>
    </message>
    <message>
        <source>Calls:</source>
        <translation>调用数：</translation>
    </message>
    <message>
        <source>Keep inputs:</source>
        <translation>保留输入：</translation>
    </message>
    <message>
        <source>Max time:</source>
        <translation>最长时间：</translation>
    </message>
    <message>
        <source>Record folder:</source>
        <translation>录制文件夹：</translation>
    </message>
    <message>
        <source>Run the script with the engine&apos;s Python and record every call of the module</source>
        <translation>用引擎的 Python 运行脚本，并录制该模块的每次调用</translation>
    </message>
    <message>
        <source>Stop the script; the calls recorded so far are kept</source>
        <translation>停止脚本；已录制的调用会保留</translation>
    </message>
    <message>
        <source>Compile %1 with these dynamic ranges; verify runs the package on every recorded shape</source>
        <translation>以这些动态范围编译 %1；验证时在每个录制到的形状上运行编译包</translation>
    </message>
    <message>
        <source>Export a bundle of %1 with these buckets</source>
        <translation>以这些档位导出 %1 的部署包</translation>
    </message>
    <message>
        <source>Compile and export use the window&apos;s model: %1</source>
        <translation>编译和导出使用窗口中的模型：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) recorded</source>
        <translation>
            <numerusform>已录制 %n 次调用</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose the script to run.</source>
        <translation>请选择要运行的脚本。</translation>
    </message>
    <message>
        <source>Name the module to record: an attribute path from a global of the script, or its class.</source>
        <translation>请指定要录制的模块：从脚本全局变量出发的属性路径，或其类。</translation>
    </message>
    <message>
        <source>Choose a folder for the record.</source>
        <translation>请为录制结果选择一个文件夹。</translation>
    </message>
    <message>
        <source>The engine is not running: start it (Engine → Restart engine) and try again.</source>
        <translation>引擎未运行：请先启动它（引擎 → 重启引擎），然后重试。</translation>
    </message>
    <message>
        <source>Starting the script…</source>
        <translation>正在启动脚本…</translation>
    </message>
    <message>
        <source>Cancelled: the calls recorded so far are in %1</source>
        <translation>已取消：已录制的调用保存在 %1</translation>
    </message>
    <message>
        <source>%1
Hint: %2</source>
        <translation>%1
提示：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) recorded, %1 distinct input signature(s), in %2.</source>
        <translation>
            <numerusform>已录制 %n 次调用，%1 种不同的输入签名，保存在 %2。</numerusform>
        </translation>
    </message>
    <message>
        <source>Smallest size the package takes (torch.export specialises 0 and 1: at least 2)</source>
        <translation>编译包接受的最小尺寸（torch.export 会将 0 和 1 特化：至少为 2）</translation>
    </message>
    <message>
        <source>Largest size the package takes</source>
        <translation>编译包接受的最大尺寸</translation>
    </message>
    <message>
        <source>Range:</source>
        <translation>范围：</translation>
    </message>
    <message>
        <source>(left static: %1)</source>
        <translation>（保持静态：%1）</translation>
    </message>
    <message>
        <source>Batch sizes of the bundle&apos;s packages, comma-separated</source>
        <translation>部署包中各编译包的批大小，以逗号分隔</translation>
    </message>
    <message>
        <source>Pad-safe</source>
        <translation>可安全填充</translation>
    </message>
    <message>
        <source>Rows are independent: a smaller batch may run zero-padded in a larger bucket</source>
        <translation>各行相互独立：较小的批可以补零后在较大的档位中运行</translation>
    </message>
    <message>
        <source>Buckets:</source>
        <translation>档位：</translation>
    </message>
    <message>
        <source>Every dimension was the same in every call: the package is static.</source>
        <translation>每次调用的所有维度都相同：编译包是静态的。</translation>
    </message>
    <message>
        <source>Warnings:</source>
        <translation>警告：</translation>
    </message>
    <message>
        <source>%1: %2 of the calls, padding waste %3</source>
        <translation>%1：占调用的 %2，填充浪费 %3</translation>
    </message>
    <message numerus="yes">
        <source>no bucket for %n call(s) (sizes %1)</source>
        <translation>
            <numerusform>%n 次调用没有对应的档位（尺寸 %1）</numerusform>
        </translation>
    </message>
    <message>
        <source>No buckets: give at least one batch size.</source>
        <translation>没有档位：请至少给出一个批大小。</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::CaptureHistogram</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>calls in the range</source>
        <translation>范围内的调用</translation>
    </message>
    <message>
        <source>calls outside the range</source>
        <translation>范围外的调用</translation>
    </message>
    <message>
        <source>size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>calls</source>
        <translation>调用数</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::Charts</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::CompareFieldModel</name>
    <message>
        <source>(not recorded)</source>
        <translation>（未记录）</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::CompareKernelModel</name>
    <message>
        <source>only in A</source>
        <translation>仅在 A 中</translation>
    </message>
    <message>
        <source>only in B</source>
        <translation>仅在 B 中</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>已更改</translation>
    </message>
    <message>
        <source>renamed</source>
        <translation>已重命名</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>未更改</translation>
    </message>
    <message>
        <source>timed only</source>
        <translation>仅有计时</translation>
    </message>
    <message>
        <source>%1 in A, %2 in B: the same source once each job&apos;s own kernel name is replaced</source>
        <translation>A 中为 %1，B 中为 %2：替换各自作业的内核名后源码相同</translation>
    </message>
    <message>
        <source>One figure per run, without an interval: where the time went. The latency ratio with its interval is in the summary.</source>
        <translation>每次运行一个数值，没有置信区间：表示时间花在哪里。带置信区间的延迟比见概要页。</translation>
    </message>
    <message>
        <source>not profiled</source>
        <translation>未做性能分析</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>A (ms/call)</source>
        <translation>A（毫秒/次）</translation>
    </message>
    <message>
        <source>B (ms/call)</source>
        <translation>B（毫秒/次）</translation>
    </message>
    <message>
        <source>B − A (ms)</source>
        <translation>B − A（毫秒）</translation>
    </message>
    <message>
        <source>B / A</source>
        <translation>B / A</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::CompareView</name>
    <message>
        <source>compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>profile</source>
        <translation>性能分析</translation>
    </message>
    <message>
        <source>quantize scheme</source>
        <translation>量化方案</translation>
    </message>
    <message>
        <source>bundle</source>
        <translation>部署包</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <source>%1 ms (p10–p90 %2–%3, %4 runs)</source>
        <translation>%1 毫秒（p10–p90 %2–%3，%4 次运行）</translation>
    </message>
    <message>
        <source>not given</source>
        <translation>未给出</translation>
    </message>
    <message>
        <source>%1× (95% CI %2–%3)</source>
        <translation>%1×（95% 置信区间 %2–%3）</translation>
    </message>
    <message>
        <source>%1× (no interval)</source>
        <translation>%1×（无置信区间）</translation>
    </message>
    <message>
        <source>profile (kernels timed)</source>
        <translation>性能分析（含内核计时）</translation>
    </message>
    <message>
        <source>the compile&apos;s measure stage (no kernel times)</source>
        <translation>编译的测量阶段（无内核计时）</translation>
    </message>
    <message>
        <source>+%1 more</source>
        <translation>另有 %1 个</translation>
    </message>
    <message>
        <source>Select a changed kernel to see how its source differs.</source>
        <translation>选择一个已更改的内核以查看其源码差异。</translation>
    </message>
    <message>
        <source>A stage both jobs have: its last snapshot in A against the one in B</source>
        <translation>两个作业都有的阶段：A 中该阶段的最后一个快照与 B 中的对比</translation>
    </message>
    <message>
        <source>Stage:</source>
        <translation>阶段：</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>概要</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>图</translation>
    </message>
    <message>
        <source>Pick two job folders to compare.</source>
        <translation>请选择两个要比较的作业文件夹。</translation>
    </message>
    <message>
        <source>Comparing %1 with %2…</source>
        <translation>正在比较 %1 与 %2…</translation>
    </message>
    <message>
        <source>These two jobs cannot be compared: %1</source>
        <translation>无法比较这两个作业：%1</translation>
    </message>
    <message>
        <source>No comparison.</source>
        <translation>没有比较结果。</translation>
    </message>
    <message>
        <source>%1 kernels in A, %2 in B: %3 only in A, %4 only in B, %5 changed, %6 unchanged.</source>
        <translation>A 中 %1 个内核，B 中 %2 个：%3 个仅在 A 中，%4 个仅在 B 中，%5 个已更改，%6 个未更改。</translation>
    </message>
    <message>
        <source>Kernels not compared: %1</source>
        <translation>未比较内核：%1</translation>
    </message>
    <message>
        <source>Neither job was profiled: no time per kernel (aotstudio-cli profile --package DIR/model.pt2 --out DIR on each).</source>
        <translation>两个作业都未做性能分析：没有每个内核的时间（对每个作业运行 aotstudio-cli profile --package DIR/model.pt2 --out DIR）。</translation>
    </message>
    <message>
        <source>Only %1 was profiled: no time differences.</source>
        <translation>只有 %1 做了性能分析：没有时间差。</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>A:</source>
        <translation>A：</translation>
    </message>
    <message>
        <source>B:</source>
        <translation>B：</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>Measured by</source>
        <translation>测量来源</translation>
    </message>
    <message>
        <source>Compiled</source>
        <translation>编译后</translation>
    </message>
    <message>
        <source>Eager</source>
        <translation>Eager</translation>
    </message>
    <message>
        <source>Speedup over eager</source>
        <translation>相对 eager 的加速比</translation>
    </message>
    <message>
        <source>Machine verdict</source>
        <translation>机器状态判定</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>Latency B / A:</source>
        <translation>延迟 B / A：</translation>
    </message>
    <message>
        <source>not given: both runs need a speedup with its interval.</source>
        <translation>未给出：两次运行都需要带置信区间的加速比。</translation>
    </message>
    <message>
        <source>The two jobs were measured in different runs: the ratio goes through each run&apos;s own eager.</source>
        <translation>两个作业在不同的运行中测量：该比值通过各自运行中的 eager 换算得出。</translation>
    </message>
    <message>
        <source>Eager itself moved between the runs (its p10–p90 ranges do not overlap): another machine, torch or load. Read the ratio as one of speedups, not of latency.</source>
        <translation>eager 本身在两次运行之间发生了变化（其 p10–p90 区间不重叠）：机器、torch 或负载不同。请把该比值理解为加速比之比，而不是延迟之比。</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Missing in A</source>
        <translation>A 中缺少的内容</translation>
    </message>
    <message>
        <source>Missing in B</source>
        <translation>B 中缺少的内容</translation>
    </message>
    <message>
        <source>nodes only in A: %1</source>
        <translation>仅在 A 中的节点：%1</translation>
    </message>
    <message>
        <source>nodes only in B: %1</source>
        <translation>仅在 B 中的节点：%1</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Same source once each job&apos;s own kernel name is replaced.</source>
        <translation>替换各自作业的内核名后源码相同。</translation>
    </message>
    <message>
        <source>The source is the same; the covered nodes or call sites differ.</source>
        <translation>源码相同；覆盖的节点或调用位置不同。</translation>
    </message>
    <message>
        <source>The two jobs have no graph stage in common.</source>
        <translation>两个作业没有共同的图阶段。</translation>
    </message>
    <message>
        <source>%1 nodes</source>
        <translation>%1 个节点</translation>
    </message>
    <message>
        <source>after %1, %2 nodes</source>
        <translation>%1 之后，%2 个节点</translation>
    </message>
    <message>
        <source>Cannot diff this stage: %1</source>
        <translation>无法比较此阶段：%1</translation>
    </message>
    <message>
        <source>A: %1 · B: %2 — %3 only in A, %4 only in B, %5 changed, %6 unchanged.</source>
        <translation>A：%1 · B：%2 — %3 个仅在 A 中，%4 个仅在 B 中，%5 个已更改，%6 个未更改。</translation>
    </message>
    <message>
        <source>Only in A: %1</source>
        <translation>仅在 A 中：%1</translation>
    </message>
    <message>
        <source>Only in B: %1</source>
        <translation>仅在 B 中：%1</translation>
    </message>
    <message>
        <source>%1 %2 → %3</source>
        <translation>%1 %2 → %3</translation>
    </message>
    <message>
        <source>Op counts: %1</source>
        <translation>算子数量：%1</translation>
    </message>
    <message>
        <source>Stages only in A: %1; only in B: %2</source>
        <translation>仅在 A 中的阶段：%1；仅在 B 中：%2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Peak memory of A and B</source>
        <translation>A 与 B 的峰值内存</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>The two compiles&apos; memory plans and fusion decisions (memory.json, fusion.json)</source>
        <translation>两次编译的内存规划和融合决策（memory.json、fusion.json）</translation>
    </message>
    <message>
        <source>Memory plans not compared: %1</source>
        <translation>未比较内存规划：%1</translation>
    </message>
    <message>
        <source>Predicted peak</source>
        <translation>预测峰值</translation>
    </message>
    <message>
        <source>Planned peak</source>
        <translation>规划峰值</translation>
    </message>
    <message>
        <source>Measured peak</source>
        <translation>实测峰值</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>neither measured (no profile.json)</source>
        <translation>均未测量（没有 profile.json）</translation>
    </message>
    <message>
        <source>Bytes (%1)</source>
        <translation>字节（%1）</translation>
    </message>
    <message>
        <source>Buffers: %1 paired by the nodes they hold, %2 only in A, %3 only in B.</source>
        <translation>缓冲区：%1 个按所含节点配对，%2 个仅在 A 中，%3 个仅在 B 中。</translation>
    </message>
    <message>
        <source>Buffer</source>
        <translation>缓冲区</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>…以及另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>Only in A</source>
        <translation>仅在 A 中</translation>
    </message>
    <message>
        <source>Only in B</source>
        <translation>仅在 B 中</translation>
    </message>
    <message>
        <source>Fusion decisions not compared: %1</source>
        <translation>未比较融合决策：%1</translation>
    </message>
    <message>
        <source>Fusion decisions</source>
        <translation>融合决策</translation>
    </message>
    <message>
        <source>%1 refused pairs and %2 fused kernels in A; %3 and %4 in B.</source>
        <translation>A 中有 %1 个被拒绝的节点对和 %2 个融合内核；B 中分别为 %3 和 %4。</translation>
    </message>
    <message>
        <source>Partial: %1&apos;s decision log is incomplete.</source>
        <translation>部分结果：%1 的决策日志不完整。</translation>
    </message>
    <message>
        <source>A and B</source>
        <translation>A 和 B</translation>
    </message>
    <message>
        <source>Refused because (Inductor&apos;s reason)</source>
        <translation>拒绝原因（Inductor 给出的）</translation>
    </message>
    <message>
        <source>Nodes by fusion status</source>
        <translation>按融合状态统计的节点</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ConnectDialog</name>
    <message>
        <source>Delete Profile</source>
        <translation>删除配置</translation>
    </message>
    <message>
        <source>Connect to a Remote Engine</source>
        <translation>连接到远程引擎</translation>
    </message>
    <message>
        <source>as in ~/.ssh/config</source>
        <translation>同 ~/.ssh/config</translation>
    </message>
    <message>
        <source>default (22)</source>
        <translation>默认（22）</translation>
    </message>
    <message>
        <source>The engine on the host: a full path, or a name found on the host&apos;s PATH</source>
        <translation>主机上的引擎：完整路径，或可在主机 PATH 中找到的名称</translation>
    </message>
    <message>
        <source>ssh-agent and ssh&apos;s default keys</source>
        <translation>ssh-agent 和 ssh 的默认密钥</translation>
    </message>
    <message>
        <source>Jobs write their output here on the host; the studio reads it through the engine</source>
        <translation>任务在主机上将输出写入此处；AOT Studio 通过引擎读取它</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Choose the private key</source>
        <translation>选择私钥</translation>
    </message>
    <message>
        <source>Profile:</source>
        <translation>配置：</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <source>User:</source>
        <translation>用户：</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>端口：</translation>
    </message>
    <message>
        <source>Engine on the host:</source>
        <translation>主机上的引擎：</translation>
    </message>
    <message>
        <source>Identity file:</source>
        <translation>身份文件：</translation>
    </message>
    <message>
        <source>Job folder on the host:</source>
        <translation>主机上的任务文件夹：</translation>
    </message>
    <message>
        <source>OpenSSH carries the engine&apos;s protocol: keys, the agent and ~/.ssh/config work as in a terminal, and the studio opens no port. Results and files stay on the host and are fetched when shown.</source>
        <translation>引擎协议经由 OpenSSH 传输：密钥、agent 和 ~/.ssh/config 与在终端中一样生效，AOT Studio 不打开任何端口。结果和文件保留在主机上，显示时才获取。</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>New profile</source>
        <translation>新建配置</translation>
    </message>
    <message>
        <source>Enter the host to connect to.</source>
        <translation>请输入要连接的主机。</translation>
    </message>
    <message>
        <source>The host %1 is not a host name.</source>
        <translation>%1 不是主机名。</translation>
    </message>
    <message>
        <source>Enter the path of aotstudio-engine on the host.</source>
        <translation>请输入主机上 aotstudio-engine 的路径。</translation>
    </message>
    <message>
        <source>The identity file %1 does not exist on this machine.</source>
        <translation>身份文件 %1 在本机上不存在。</translation>
    </message>
    <message>
        <source>The job folder on the host must be an absolute path (it starts with /).</source>
        <translation>主机上的任务文件夹必须是绝对路径（以 / 开头）。</translation>
    </message>
    <message>
        <source>Runs: %1</source>
        <translation>将运行：%1</translation>
    </message>
    <message>
        <source>Identity File</source>
        <translation>身份文件</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ErrorScaleLegend</name>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>no value</source>
        <translation>无值</translation>
    </message>
    <message>
        <source>%1 (tolerance)</source>
        <translation>%1（容差）</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ExportDialog</name>
    <message>
        <source>Export Bundle</source>
        <translation>导出部署包</translation>
    </message>
    <message>
        <source>Compiles one package per batch size from &lt;b&gt;%1&lt;/b&gt; and writes them, with a manifest and a report, into a new bundle folder that aotstudio-run can load.</source>
        <translation>从 &lt;b&gt;%1&lt;/b&gt; 为每个批大小编译一个编译包，并连同清单和报告写入一个新的部署包文件夹，供 aotstudio-run 加载。</translation>
    </message>
    <message>
        <source>A new folder: the engine never overwrites an existing bundle.</source>
        <translation>一个新文件夹：引擎从不覆盖已有的部署包。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>e.g. 1,4,16</source>
        <translation>例如 1,4,16</translation>
    </message>
    <message>
        <source>Batch sizes, separated by commas: one compiled package each.</source>
        <translation>批大小，以逗号分隔：每个编译一个编译包。</translation>
    </message>
    <message>
        <source>Dynamic batch from</source>
        <translation>动态批大小，从</translation>
    </message>
    <message>
        <source>Adds one package whose batch dimension may be any size in this range.</source>
        <translation>额外生成一个编译包，其批维度可以是此范围内的任意大小。</translation>
    </message>
    <message>
        <source>to</source>
        <translation>到</translation>
    </message>
    <message>
        <source>Rows are independent (padding is safe)</source>
        <translation>各行相互独立（可安全填充）</translation>
    </message>
    <message>
        <source>Lets the runtime answer a batch of 3 with the batch-4 package by padding with zeros. Leave it off if rows influence each other (e.g. batch normalization in training mode).</source>
        <translation>允许运行时用零填充，以批大小 4 的编译包处理批大小 3 的请求。如果各行相互影响（例如训练模式下的批归一化），请不要勾选。</translation>
    </message>
    <message>
        <source>Also write a .zip</source>
        <translation>同时写入 .zip</translation>
    </message>
    <message>
        <source>Do not measure</source>
        <translation>不测量</translation>
    </message>
    <message>
        <source>Fresh processes timed from spawn to first output, bundle against eager PyTorch.</source>
        <translation>对全新进程从启动到首个输出计时，比较部署包与 eager PyTorch。</translation>
    </message>
    <message>
        <source>Bundle folder:</source>
        <translation>部署包文件夹：</translation>
    </message>
    <message>
        <source>Batch buckets:</source>
        <translation>批大小档位：</translation>
    </message>
    <message>
        <source>Cold-start runs:</source>
        <translation>冷启动测量次数：</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Choose a folder for the bundle.</source>
        <translation>请为部署包选择一个文件夹。</translation>
    </message>
    <message>
        <source>%1 already exists. The engine never overwrites a bundle: choose a new folder.</source>
        <translation>%1 已存在。引擎从不覆盖部署包：请选择一个新文件夹。</translation>
    </message>
    <message>
        <source>%1 already exists. Choose another bundle folder or do not write a .zip.</source>
        <translation>%1 已存在。请选择其他部署包文件夹，或不写入 .zip。</translation>
    </message>
    <message>
        <source>Batch buckets must be whole numbers from 1 to %1, separated by commas (e.g. 1,4,16).</source>
        <translation>批大小档位必须是 1 到 %1 之间的整数，以逗号分隔（例如 1,4,16）。</translation>
    </message>
    <message>
        <source>Give at least one batch bucket or a dynamic batch range.</source>
        <translation>请至少给出一个批大小档位或一个动态批大小范围。</translation>
    </message>
    <message>
        <source>The dynamic batch range must run from a smaller to a larger size.</source>
        <translation>动态批大小范围必须从较小值到较大值。</translation>
    </message>
    <message>
        <source>Folder to create the bundle in</source>
        <translation>要在其中创建部署包的文件夹</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::GraphCanvas</name>
    <message>
        <source>No graph loaded.</source>
        <translation>未加载计算图。</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <translation>
            <numerusform>%n 个节点</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n node(s)</source>
        <translation>
            <numerusform>%1 · %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>buffer</source>
        <translation>缓冲区</translation>
    </message>
    <message>
        <source>constant</source>
        <translation>常量</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <source>zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <source>Arrow keys</source>
        <translation>方向键</translation>
    </message>
    <message>
        <source>pan</source>
        <translation>平移</translation>
    </message>
    <message>
        <source>fit the whole graph</source>
        <translation>使整个计算图适应视图</translation>
    </message>
    <message>
        <source>Wheel</source>
        <translation>滚轮</translation>
    </message>
    <message>
        <source>zoom at the pointer</source>
        <translation>以指针位置为中心缩放</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::GraphDiffView</name>
    <message>
        <source>◀ Previous pass</source>
        <translation>◀ 上一个优化遍</translation>
    </message>
    <message>
        <source>Next pass ▶</source>
        <translation>下一个优化遍 ▶</translation>
    </message>
    <message>
        <source>Show the step into the previous pass</source>
        <translation>显示进入上一个优化遍的步骤</translation>
    </message>
    <message>
        <source>Show the step into the next pass</source>
        <translation>显示进入下一个优化遍的步骤</translation>
    </message>
    <message>
        <source>Cannot show this step: %1</source>
        <translation>无法显示此步骤：%1</translation>
    </message>
    <message>
        <source>No snapshots.</source>
        <translation>没有快照。</translation>
    </message>
    <message>
        <source>Step %1 of %2: </source>
        <translation>第 %1 步，共 %2 步：</translation>
    </message>
    <message>
        <source>%1 → %2: &lt;span style=&quot;color:#2e9e44&quot;&gt;+%3 added&lt;/span&gt;, &lt;span style=&quot;color:#d03b3b&quot;&gt;−%4 removed&lt;/span&gt;, &lt;span style=&quot;color:#e08e0b&quot;&gt;~%5 changed&lt;/span&gt;, %6 unchanged</source>
        <translation>%1 → %2：&lt;span style=&quot;color:#2e9e44&quot;&gt;+%3 新增&lt;/span&gt;，&lt;span style=&quot;color:#d03b3b&quot;&gt;−%4 删除&lt;/span&gt;，&lt;span style=&quot;color:#e08e0b&quot;&gt;~%5 修改&lt;/span&gt;，%6 未变</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::GraphLayout</name>
    <message>
        <source>part %1 of %2</source>
        <translation>第 %1 部分，共 %2 部分</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::GraphMinimap</name>
    <message>
        <source>Overview: click or drag to move the view</source>
        <translation>概览：单击或拖动以移动视图</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::GraphPanel</name>
    <message>
        <source>Search by name, op, module or source line…</source>
        <translation>按名称、算子、模块或源代码行搜索…</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>图</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>The selected snapshot against the one before it: added, removed and changed nodes</source>
        <translation>所选快照与前一个快照的对比：新增、删除和修改的节点</translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n node(s)</source>
        <translation>
            <numerusform>%1 — %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>No snapshot selected: pick a stage or pass in the Pipeline panel.</source>
        <translation>未选择快照：请在流水线面板中选择一个阶段或优化遍。</translation>
    </message>
    <message>
        <source>Eager</source>
        <translation>Eager</translation>
    </message>
    <message>
        <source>Compiled</source>
        <translation>编译后</translation>
    </message>
    <message>
        <source>Whose error colours the nodes: eager (op by op in the run&apos;s dtype) or compiled (AOTInductor, every intermediate exposed), each against the float64 reference</source>
        <translation>按谁的误差为节点着色：eager（按运行的数据类型逐个算子执行）或编译后（AOTInductor，暴露所有中间结果），均相对于 float64 参考值</translation>
    </message>
    <message>
        <source>Select the first node past the tolerance whose inputs are all within it: where the error starts</source>
        <translation>选择第一个超出容差、而其所有输入都在容差之内的节点：误差从这里开始</translation>
    </message>
    <message>
        <source>Error of:</source>
        <translation>误差来源：</translation>
    </message>
    <message>
        <source>First divergent: %1</source>
        <translation>首个发散节点：%1</translation>
    </message>
    <message>
        <source>No node past the tolerance</source>
        <translation>没有超出容差的节点</translation>
    </message>
    <message numerus="yes">
        <source>%n more refused pair(s) in the Inspector</source>
        <translation>
            <numerusform>检查器中还有 %n 个被拒绝的节点对</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Fusion decisions of job %1: %n refused pair(s).</source>
        <translation>
            <numerusform>作业 %1 的融合决策：%n 个被拒绝的节点对。</numerusform>
        </translation>
    </message>
    <message>
        <source>No fusion decisions: %1</source>
        <translation>没有融合决策：%1</translation>
    </message>
    <message>
        <source>This job has no fusion decisions (fusion.json): only a compile made by this version records them.</source>
        <translation>此作业没有融合决策（fusion.json）：只有用本版本进行的编译才会记录它们。</translation>
    </message>
    <message>
        <source>No graph: this job stopped before its first snapshot.</source>
        <translation>无计算图：此任务在第一个快照之前就已停止。</translation>
    </message>
    <message>
        <source>No graph yet: the first snapshot appears when export finishes.</source>
        <translation>尚无计算图：导出完成后将出现第一个快照。</translation>
    </message>
    <message>
        <source>No graph: this job records no graph snapshots; pick a compile in the Jobs dock.</source>
        <translation>无计算图：此任务不记录计算图快照；请在“任务”面板中选择一个编译任务。</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::GraphView</name>
    <message>
        <source>Search name, op, module, source line</source>
        <translation>搜索名称、算子、模块、源代码行</translation>
    </message>
    <message>
        <source>Colour: op category</source>
        <translation>着色：算子类别</translation>
    </message>
    <message>
        <source>Colour: fused kernel</source>
        <translation>着色：融合内核</translation>
    </message>
    <message>
        <source>Colour: measured time</source>
        <translation>着色：实测时间</translation>
    </message>
    <message>
        <source>Colour: dtype</source>
        <translation>着色：数据类型</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Fit the whole graph in the view (0)</source>
        <translation>使整个计算图适应视图（0）</translation>
    </message>
    <message>
        <source>Expand all</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <source>Expand every module group</source>
        <translation>展开所有模块组</translation>
    </message>
    <message>
        <source>Collapse all</source>
        <translation>全部折叠</translation>
    </message>
    <message>
        <source>Collapse every module group</source>
        <translation>折叠所有模块组</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export the view as SVG or PNG, or the graph as DOT</source>
        <translation>将视图导出为 SVG 或 PNG，或将计算图导出为 DOT</translation>
    </message>
    <message>
        <source>Export graph</source>
        <translation>导出计算图</translation>
    </message>
    <message>
        <source>View as SVG…</source>
        <translation>视图另存为 SVG…</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>View as PNG…</source>
        <translation>视图另存为 PNG…</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Graph as DOT…</source>
        <translation>计算图另存为 DOT…</translation>
    </message>
    <message>
        <source>Graphviz DOT (*.dot *.gv)</source>
        <translation>Graphviz DOT (*.dot *.gv)</translation>
    </message>
    <message>
        <source>Module: %1</source>
        <translation>模块：%1</translation>
    </message>
    <message>
        <source>(top level)</source>
        <translation>（顶层）</translation>
    </message>
    <message>
        <source>Outputs: %1</source>
        <translation>输出：%1</translation>
    </message>
    <message>
        <source>Source: %1:%2 in %3</source>
        <translation>源代码：%1:%2，位于 %3</translation>
    </message>
    <message>
        <source>%1 (%2 ms)</source>
        <translation>%1（%2 毫秒）</translation>
    </message>
    <message>
        <source>Kernels: %1</source>
        <translation>内核：%1</translation>
    </message>
    <message>
        <source>Kernels: none covers this node</source>
        <translation>内核：没有内核覆盖此节点</translation>
    </message>
    <message>
        <source>Passes: %1</source>
        <translation>优化遍：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>第 %1 个，共 %2 个</translation>
    </message>
    <message>
        <source>AOT Studio graph</source>
        <translation>AOT Studio 计算图</translation>
    </message>
    <message>
        <source>Colour: numeric error</source>
        <translation>着色：数值误差</translation>
    </message>
    <message>
        <source>Each node&apos;s error against the float64 reference (a numerics job)</source>
        <translation>每个节点相对于 float64 参考值的误差（数值分析作业）</translation>
    </message>
    <message>
        <source>Colour: fusion status</source>
        <translation>着色：融合状态</translation>
    </message>
    <message>
        <source>Whether Inductor fused each node, considered it and refused (hover a node for the reason), or never considered it (a compile&apos;s fusion decisions; post-grad snapshots)</source>
        <translation>Inductor 是否融合了每个节点、曾考虑但拒绝（悬停在节点上查看原因），或从未考虑（编译的融合决策；post-grad 快照）</translation>
    </message>
    <message>
        <source>fused</source>
        <translation>已融合</translation>
    </message>
    <message>
        <source>considered and refused</source>
        <translation>曾被考虑但被拒绝</translation>
    </message>
    <message>
        <source>considered, another pair fused</source>
        <translation>曾被考虑，融合了另一对</translation>
    </message>
    <message>
        <source>never a candidate</source>
        <translation>从未成为候选</translation>
    </message>
    <message>
        <source>no decision</source>
        <translation>无决策</translation>
    </message>
    <message>
        <source>Hover a node for the pairs Inductor refused to fuse it in, with its reason</source>
        <translation>悬停在节点上可查看 Inductor 拒绝融合它的节点对及原因</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::HelpWindows</name>
    <message>
        <source>Getting started (README)</source>
        <translation>入门（README）</translation>
    </message>
    <message>
        <source>Engine protocol and job folders</source>
        <translation>引擎协议与作业文件夹</translation>
    </message>
    <message>
        <source>Bundles and aotstudio-run</source>
        <translation>部署包与 aotstudio-run</translation>
    </message>
    <message>
        <source>Profiles and measuring</source>
        <translation>性能分析与测量</translation>
    </message>
    <message>
        <source>Serving</source>
        <translation>模型服务</translation>
    </message>
    <message>
        <source>Graph snapshots</source>
        <translation>计算图快照</translation>
    </message>
    <message>
        <source>Session files</source>
        <translation>会话文件</translation>
    </message>
    <message>
        <source>Hacking on AOT Studio</source>
        <translation>参与 AOT Studio 开发</translation>
    </message>
    <message>
        <source>Graph: %1</source>
        <translation>计算图：%1</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>AOT Studio Documentation</source>
        <translation>AOT Studio 文档</translation>
    </message>
    <message>
        <source>No documentation was found: looked in $AOTSTUDIO_DOCS and in %1. Install the studio with its documentation (cmake --install) or set AOTSTUDIO_DOCS to a folder holding README.md.</source>
        <translation>未找到文档：已查找 $AOTSTUDIO_DOCS 和 %1。请连同文档一起安装 AOT Studio（cmake --install），或将 AOTSTUDIO_DOCS 设置为包含 README.md 的文件夹。</translation>
    </message>
    <message>
        <source>Design</source>
        <translation>设计</translation>
    </message>
    <message>
        <source>Code style</source>
        <translation>代码风格</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::InputsDialog</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Check Shapes</source>
        <translation>检查形状</translation>
    </message>
    <message>
        <source>Inputs of %1</source>
        <translation>%1 的输入</translation>
    </message>
    <message>
        <source>%1 on %2, %3</source>
        <translation>%1，设备 %2，%3</translation>
    </message>
    <message>
        <source>Stop building the model</source>
        <translation>停止构建模型</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Dim</source>
        <translation>维度</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Dynamic</source>
        <translation>动态</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Tie name</source>
        <translation>绑定名称</translation>
    </message>
    <message>
        <source>Dynamic dimensions of one name are one dimension (e.g. the batch of every input)</source>
        <translation>同名的动态维度是同一个维度（例如所有输入的批次维）</translation>
    </message>
    <message>
        <source>Build the inputs again at the edited shapes and run the model once</source>
        <translation>按编辑后的形状重新构建输入并运行模型一次</translation>
    </message>
    <message>
        <source>Model&apos;s Shapes</source>
        <translation>模型的形状</translation>
    </message>
    <message>
        <source>Put every size back to the model&apos;s own example</source>
        <translation>把所有大小恢复为模型自带示例的大小</translation>
    </message>
    <message>
        <source>The engine is not running: start it (Engine → Restart engine) and open this again.</source>
        <translation>引擎未运行：请先启动它（引擎 → 重启引擎），再打开此窗口。</translation>
    </message>
    <message>
        <source>Building the model and its example inputs…</source>
        <translation>正在构建模型及其示例输入…</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>%1 on %2, %3; parameters: %4</source>
        <translation>%1，设备 %2，%3；参数：%4</translation>
    </message>
    <message>
        <source>%1
Hint: %2</source>
        <translation>%1
提示：%2</translation>
    </message>
    <message>
        <source>The engine could not build the inputs.</source>
        <translation>引擎无法构建输入。</translation>
    </message>
    <message>
        <source>%1 %2 %3</source>
        <translation>%1 %2 %3</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Values %1</source>
        <translation>取值 %1</translation>
    </message>
    <message>
        <source>scalar</source>
        <translation>标量</translation>
    </message>
    <message>
        <source>Size of dimension %1 of %2 (the model&apos;s example: %3)</source>
        <translation>%2 第 %1 维的大小（模型示例：%3）</translation>
    </message>
    <message>
        <source>Make dimension %1 of %2 dynamic in the exported program</source>
        <translation>在导出的程序中把 %2 的第 %1 维设为动态</translation>
    </message>
    <message>
        <source>Outputs of one eager forward: %1</source>
        <translation>一次 eager 前向的输出：%1</translation>
    </message>
    <message>
        <source>At the edited shapes the model ran: %1</source>
        <translation>模型在编辑后的形状下运行成功：%1</translation>
    </message>
    <message>
        <source>Dimension %1 of %2: the minimum %3 is above the maximum %4.</source>
        <translation>%2 的第 %1 维：最小值 %3 大于最大值 %4。</translation>
    </message>
    <message>
        <source>Dimension %1 of %2: its size %3 is outside its dynamic range %4..%5%6.</source>
        <translation>%2 的第 %1 维：大小 %3 不在其动态范围 %4..%5%6 内。</translation>
    </message>
    <message>
        <source> (the range of “%1”)</source>
        <translation>（“%1”的范围）</translation>
    </message>
    <message>
        <source>Sizes change the example inputs every job of this model starts from (their values are repeated or cut, so token ids and masks keep their range). Inputs that share a dimension, such as ids and their attention mask, must be changed together. A dynamic range must hold the example&apos;s size; dimensions of one tie name share one range.</source>
        <translation>这里的大小会改变该模型每个作业所用的示例输入（其数值被重复或截断，因此 token id 和掩码保持原有取值范围）。共享某个维度的输入（例如 id 及其注意力掩码）必须一起修改。动态范围必须包含示例的大小；同一绑定名称的维度共用同一个范围。</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::InspectorPanel</name>
    <message>
        <source>Property</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Select a pass, node or kernel.</source>
        <translation>请选择一个优化遍、节点或内核。</translation>
    </message>
    <message>
        <source>Node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <source>Snapshot</source>
        <translation>快照</translation>
    </message>
    <message>
        <source>the node is not in this snapshot</source>
        <translation>该节点不在此快照中</translation>
    </message>
    <message>
        <source>no snapshot loaded</source>
        <translation>未加载快照</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>root</source>
        <translation>根</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Module stack</source>
        <translation>模块栈</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源代码</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Passes that touched it</source>
        <translation>处理过它的优化遍</translation>
    </message>
    <message>
        <source>Provenance</source>
        <translation>溯源</translation>
    </message>
    <message>
        <source>%1 by %2 (from %3)</source>
        <translation>由 %2 %1（来自 %3）</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>none (not computed by a generated kernel)</source>
        <translation>无（不由生成的内核计算）</translation>
    </message>
    <message>
        <source>%1, %2 per call</source>
        <translation>%1，每次调用 %2</translation>
    </message>
    <message>
        <source>Kernel %1</source>
        <translation>内核 %1</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Library op</source>
        <translation>库算子</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Total time</source>
        <translation>总时间</translation>
    </message>
    <message>
        <source>Mean time</source>
        <translation>平均时间</translation>
    </message>
    <message>
        <source>Share of kernel time</source>
        <translation>占内核时间比例</translation>
    </message>
    <message>
        <source>Covered nodes</source>
        <translation>覆盖的节点</translation>
    </message>
    <message>
        <source>post-grad</source>
        <translation>post-grad</translation>
    </message>
    <message>
        <source>From pre-grad nodes</source>
        <translation>来自 pre-grad 节点</translation>
    </message>
    <message>
        <source>Source lines</source>
        <translation>源代码行</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>Pass %1</source>
        <translation>优化遍 %1</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>优化遍</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>Nodes before</source>
        <translation>之前的节点数</translation>
    </message>
    <message>
        <source>Changed the graph</source>
        <translation>修改了计算图</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Numerical error</source>
        <translation>数值误差</translation>
    </message>
    <message>
        <source>tolerance %1</source>
        <translation>容差 %1</translation>
    </message>
    <message>
        <source>not measured at this node</source>
        <translation>此节点未测量</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>参考</translation>
    </message>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>no value (not exposed)</source>
        <translation>无值（未暴露）</translation>
    </message>
    <message>
        <source>%1, first divergent</source>
        <translation>%1，首个发散节点</translation>
    </message>
    <message>
        <source>%1, diverges</source>
        <translation>%1，发散</translation>
    </message>
    <message>
        <source>norm error: max |x − reference| / max |reference|</source>
        <translation>归一化误差：max |x − 参考值| / max |参考值|</translation>
    </message>
    <message>
        <source>Max abs</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <source>Max rel</source>
        <translation>最大相对误差</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>余弦相似度</translation>
    </message>
    <message>
        <source>Growth over inputs</source>
        <translation>相对输入的增长</translation>
    </message>
    <message>
        <source>Eager</source>
        <translation>Eager</translation>
    </message>
    <message>
        <source>Compiled</source>
        <translation>编译后</translation>
    </message>
    <message>
        <source>fused with other nodes into one kernel</source>
        <translation>已与其他节点融合为一个内核</translation>
    </message>
    <message>
        <source>considered and refused</source>
        <translation>曾被考虑但被拒绝融合</translation>
    </message>
    <message>
        <source>considered; another pair was fused</source>
        <translation>曾被考虑；融合了另一对节点</translation>
    </message>
    <message>
        <source>never a fusion candidate</source>
        <translation>从未成为融合候选</translation>
    </message>
    <message>
        <source>Fusion</source>
        <translation>融合</translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform>等另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>not fused with %1</source>
        <translation>未与 %1 融合</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::JobController</name>
    <message>
        <source>%1: done in %2 s</source>
        <translation>%1：完成，用时 %2 秒</translation>
    </message>
    <message>
        <source>Snapshot %1: %2 nodes</source>
        <translation>快照 %1：%2 个节点</translation>
    </message>
    <message>
        <source>Restarting the engine.</source>
        <translation>正在重启引擎。</translation>
    </message>
    <message>
        <source>Connecting to the engine on %1.</source>
        <translation>正在连接 %1 上的引擎。</translation>
    </message>
    <message>
        <source>Starting the local engine.</source>
        <translation>正在启动本地引擎。</translation>
    </message>
    <message>
        <source>Compile a model first: Sweep Shapes verifies the last compiled package.</source>
        <translation>请先编译模型：形状扫描验证的是最近一次编译的包。</translation>
    </message>
    <message>
        <source>Sweeping %1 across its shapes…</source>
        <translation>正在对 %1 进行形状扫描…</translation>
    </message>
    <message>
        <source>Sweeping the package %1 into %2</source>
        <translation>正在扫描编译包 %1，结果写入 %2</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Sweep a Bundle</source>
        <translation>扫描部署包</translation>
    </message>
    <message>
        <source>Bundle on %1 (a folder holding manifest.json, or a .zip):</source>
        <translation>%1 上的部署包（包含 manifest.json 的文件夹，或 .zip）：</translation>
    </message>
    <message>
        <source>Bundles (manifest.json *.zip);;All files (*)</source>
        <translation>部署包 (manifest.json *.zip);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Sweeping the bundle %1 across its shapes…</source>
        <translation>正在所有形状上扫描部署包 %1…</translation>
    </message>
    <message>
        <source>Sweeping the bundle %1 into %2 (loaded without a trusted signature, as you chose)</source>
        <translation>正在将部署包 %1 扫描到 %2（按您的选择，在没有可信签名的情况下加载）</translation>
    </message>
    <message>
        <source>Sweeping the bundle %1 into %2</source>
        <translation>正在将部署包 %1 扫描到 %2</translation>
    </message>
    <message>
        <source>Pick a model first.</source>
        <translation>请先选择一个模型。</translation>
    </message>
    <message>
        <source>Choose at least one scheme in Run Settings.</source>
        <translation>请在运行设置中至少选择一个方案。</translation>
    </message>
    <message>
        <source>Cannot create the output folder %1.</source>
        <translation>无法创建输出文件夹 %1。</translation>
    </message>
    <message>
        <source>Profiling %1…</source>
        <translation>正在对 %1 进行性能分析…</translation>
    </message>
    <message>
        <source>Quantizing %1…</source>
        <translation>正在量化 %1…</translation>
    </message>
    <message>
        <source>Compiling %1…</source>
        <translation>正在编译 %1…</translation>
    </message>
    <message>
        <source>Profiling %1 on %2 into %3</source>
        <translation>正在 %2 上对 %1 进行性能分析，输出到 %3</translation>
    </message>
    <message>
        <source>Quantizing %1 on %2 into %3 (schemes: %4)</source>
        <translation>正在 %2 上量化 %1，输出到 %3（方案：%4）</translation>
    </message>
    <message>
        <source>Compiling %1 on %2 into %3</source>
        <translation>正在 %2 上编译 %1，输出到 %3</translation>
    </message>
    <message>
        <source>Profiling the package of the last compile (%1): same model, device and options, so it is not compiled again</source>
        <translation>对最近一次编译的包（%1）进行性能分析：模型、设备和选项都相同，因此不再重新编译</translation>
    </message>
    <message>
        <source>Exporting a bundle to %1…</source>
        <translation>正在导出部署包到 %1…</translation>
    </message>
    <message>
        <source>Exporting a bundle of %1 (batch %2) into %3</source>
        <translation>正在导出 %1 的部署包（批大小 %2），输出到 %3</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Not started: no CUDA device</source>
        <translation>未开始：没有 CUDA 设备</translation>
    </message>
    <message>
        <source>Not compiled: CUDA was requested, but the engine has no CUDA device.</source>
        <translation>未编译：请求使用 CUDA，但引擎没有 CUDA 设备。</translation>
    </message>
    <message>
        <source>CUDA was requested, but the engine reports no CUDA device (torch %1, CUDA %2). Nothing was compiled; choose CPU to compile on the CPU.</source>
        <translation>请求使用 CUDA，但引擎报告没有 CUDA 设备（torch %1，CUDA %2）。未进行编译；如需在 CPU 上编译，请选择 CPU。</translation>
    </message>
    <message>
        <source>unavailable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Export · %1</source>
        <translation>导出 · %1</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Exported the bundle %1.</source>
        <translation>已导出部署包 %1。</translation>
    </message>
    <message>
        <source>Bundle written to %1</source>
        <translation>部署包已写入 %1</translation>
    </message>
    <message>
        <source>Sweep failed</source>
        <translation>形状扫描未通过</translation>
    </message>
    <message>
        <source>Swept %1: %2</source>
        <translation>已扫描 %1：%2</translation>
    </message>
    <message>
        <source>Sweep of %1 FAILED: %2</source>
        <translation>%1 的形状扫描未通过：%2</translation>
    </message>
    <message>
        <source>Profiled %1.</source>
        <translation>已完成 %1 的性能分析。</translation>
    </message>
    <message>
        <source>Quantized %1.</source>
        <translation>已完成 %1 的量化。</translation>
    </message>
    <message>
        <source>Compiled %1.</source>
        <translation>已编译 %1。</translation>
    </message>
    <message>
        <source>%1 Hint: %2</source>
        <translation>%1 提示：%2</translation>
    </message>
    <message>
        <source>The engine reported a problem: %1</source>
        <translation>引擎报告了一个问题：%1</translation>
    </message>
    <message>
        <source>The engine did not load the bundle %1: %2</source>
        <translation>引擎未加载部署包 %1：%2</translation>
    </message>
    <message>
        <source>Waiting for your decision</source>
        <translation>等待您的决定</translation>
    </message>
    <message>
        <source>this computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Not loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <source>Profiling</source>
        <translation>性能分析</translation>
    </message>
    <message>
        <source>Quantizing</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Sweeping</source>
        <translation>形状扫描</translation>
    </message>
    <message>
        <source>Compiling</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>The engine stopped during this job.</source>
        <translation>引擎在此任务运行期间停止。</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Exporting the bundle %1 was cancelled.</source>
        <translation>导出部署包 %1 已取消。</translation>
    </message>
    <message>
        <source>Exporting the bundle %1 failed: %2</source>
        <translation>导出部署包 %1 失败：%2</translation>
    </message>
    <message>
        <source>%1 %2 was cancelled.</source>
        <translation>%1 %2 已取消。</translation>
    </message>
    <message>
        <source>%1 %2 failed: %3</source>
        <translation>%1 %2 失败：%3</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation>%1 失败</translation>
    </message>
    <message>
        <source>The job failed.</source>
        <translation>任务失败。</translation>
    </message>
    <message>
        <source>Stage: %1
Code: %2</source>
        <translation>阶段：%1
代码：%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;The engine is not running.&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;引擎未运行。&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>Engine stopped: %1</source>
        <translation>引擎已停止：%1</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>The next compile uses the recipe “%1” (Run Settings shows its options).</source>
        <translation>下一次编译将使用配方“%1”（运行设置中可查看其选项）。</translation>
    </message>
    <message>
        <source>Tune Compile Recipe</source>
        <translation>调优编译配方</translation>
    </message>
    <message>
        <source>Compile %1 under several option sets (freezing, max-autotune, fusion, bf16, …), verify each against eager and time them all.

Time budget (no trial starts after it):</source>
        <translation>用多组选项（freezing、max-autotune、融合、bf16 等）编译 %1，逐一对照 eager 验证并全部计时。

时间预算（超过后不再开始新的试验）：</translation>
    </message>
    <message>
        <source>Tune</source>
        <translation>调优</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>Finding where %1 diverges numerically…</source>
        <translation>正在查找 %1 数值开始发散的位置…</translation>
    </message>
    <message>
        <source>Tuning the compile recipe of %1…</source>
        <translation>正在调优 %1 的编译配方…</translation>
    </message>
    <message>
        <source>Finding the numerical divergence of %1 on %2 in %3 into %4 (each node against a float64 reference)</source>
        <translation>在 %2 上以 %3 查找 %1 的数值发散，输出到 %4（每个节点对照 float64 参考）</translation>
    </message>
    <message>
        <source>Tuning the compile recipe of %1 on %2 into %3 (budget %4)</source>
        <translation>在 %2 上调优 %1 的编译配方，输出到 %3（预算 %4）</translation>
    </message>
    <message numerus="yes">
        <source>%n min</source>
        <translation>
            <numerusform>%n 分钟</numerusform>
        </translation>
    </message>
    <message>
        <source>Tune · %1</source>
        <translation>调优 · %1</translation>
    </message>
    <message>
        <source>no result</source>
        <translation>没有结果</translation>
    </message>
    <message>
        <source>The numerics result of %1 cannot be shown: %2</source>
        <translation>无法显示 %1 的数值分析结果：%2</translation>
    </message>
    <message>
        <source>The tune result of %1 cannot be shown: %2</source>
        <translation>无法显示 %1 的调优结果：%2</translation>
    </message>
    <message>
        <source>Result not readable</source>
        <translation>结果无法读取</translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s), no recipe qualified</source>
        <translation>
            <numerusform>%n 项试验，没有符合条件的配方</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s), recipe: %1</source>
        <translation>
            <numerusform>%n 项试验，配方：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Numerics of %1: %2</source>
        <translation>%1 的数值分析：%2</translation>
    </message>
    <message>
        <source>Tuned %1: %2</source>
        <translation>已调优 %1：%2</translation>
    </message>
    <message>
        <source>Finding numerical divergence</source>
        <translation>查找数值发散</translation>
    </message>
    <message>
        <source>Tuning</source>
        <translation>调优</translation>
    </message>
    <message>
        <source>Finding the numerical divergence of %1 was cancelled.</source>
        <translation>查找 %1 的数值发散已取消。</translation>
    </message>
    <message>
        <source>Finding the numerical divergence of %1 failed: %2</source>
        <translation>查找 %1 的数值发散失败：%2</translation>
    </message>
    <message>
        <source>Choose the Venv of the Engine</source>
        <translation>选择引擎所在的 venv</translation>
    </message>
    <message>
        <source>No engine in this venv</source>
        <translation>此 venv 中没有引擎</translation>
    </message>
    <message>
        <source>%1 has no %2. Install the engine into it with: %3</source>
        <translation>%1 中没有 %2。请用以下命令将引擎安装到其中：%3</translation>
    </message>
    <message>
        <source>The engine is not ready yet.</source>
        <translation>引擎尚未就绪。</translation>
    </message>
    <message>
        <source>Jobs of %1 use its own example shapes.</source>
        <translation>%1 的作业使用其自带的示例形状。</translation>
    </message>
    <message>
        <source>Jobs of %1 use the shapes %2.</source>
        <translation>%1 的作业使用形状 %2。</translation>
    </message>
    <message>
        <source>No longer using the engine in %1</source>
        <translation>不再使用 %1 中的引擎</translation>
    </message>
    <message>
        <source>on the Ray cluster %1</source>
        <translation>在 Ray 集群 %1 上</translation>
    </message>
    <message>
        <source>The last compile was regional: it has no package of the whole model to sweep.</source>
        <translation>最近一次编译是分区域编译：没有整个模型的编译包可供扫描。</translation>
    </message>
    <message>
        <source>The last compile was regional: export a bundle from a compile of the whole model.</source>
        <translation>最近一次编译是分区域编译：请从整个模型的编译结果导出部署包。</translation>
    </message>
    <message>
        <source>The target cannot change while a job runs: cancel it or wait for it to finish.</source>
        <translation>作业运行期间不能更改目标：请取消该作业或等待它完成。</translation>
    </message>
    <message>
        <source>Jobs run in the studio&apos;s own engine from now on.</source>
        <translation>从现在起，作业在 AOT Studio 自带的引擎中运行。</translation>
    </message>
    <message>
        <source>Jobs run in the engine of target %1 from now on.</source>
        <translation>从现在起，作业在目标 %1 的引擎中运行。</translation>
    </message>
    <message>
        <source>Nothing to reproduce: Make Repro needs a compile that failed to compile or verify, or a numerics job that found a divergent node.</source>
        <translation>没有可复现的内容：“生成复现”需要一次编译或验证失败的编译，或一个找到了发散节点的数值分析作业。</translation>
    </message>
    <message>
        <source>Making a repro of %1…</source>
        <translation>正在生成 %1 的复现…</translation>
    </message>
    <message>
        <source>Making a standalone repro of %1 (%2) and running it once in a fresh process</source>
        <translation>正在生成 %1 的独立复现（%2），并在新进程中运行一次</translation>
    </message>
    <message>
        <source>it reproduces the failure in a fresh process</source>
        <translation>它在新进程中复现了该失败</translation>
    </message>
    <message>
        <source>it did NOT reproduce the failure in a fresh process (flaky, or it depends on the engine&apos;s machine or settings)</source>
        <translation>它在新进程中未能复现该失败（失败不稳定，或取决于引擎所在机器或其设置）</translation>
    </message>
    <message>
        <source>whether it reproduces is not known (%1)</source>
        <translation>无法确定是否复现（%1）</translation>
    </message>
    <message>
        <source>Repro written to %1: %2.</source>
        <translation>复现已写入 %1：%2。</translation>
    </message>
    <message>
        <source>Repro %1: %2</source>
        <translation>复现 %1：%2</translation>
    </message>
    <message>
        <source>the numerics divergence of %1</source>
        <translation>%1 的数值发散</translation>
    </message>
    <message>
        <source>the verify mismatch of %1</source>
        <translation>%1 的验证不匹配</translation>
    </message>
    <message>
        <source>the failed compile of %1</source>
        <translation>%1 的编译失败</translation>
    </message>
    <message>
        <source>Making a repro</source>
        <translation>生成复现</translation>
    </message>
    <message>
        <source>Make Repro</source>
        <translation>生成复现</translation>
    </message>
    <message>
        <source>Write a folder that reproduces this failure with plain torch and run it once</source>
        <translation>写出一个用纯 torch 复现此失败的文件夹，并运行一次</translation>
    </message>
    <message>
        <source>&lt;b&gt;Connection to %1 lost — reconnecting (attempt %2 of %3)…&lt;/b&gt; Running jobs go on on the host.</source>
        <translation>&lt;b&gt;与 %1 的连接已断开 — 正在重新连接（第 %2 次，共 %3 次）…&lt;/b&gt; 正在运行的任务在主机上继续。</translation>
    </message>
    <message>
        <source>Reattached to %1.</source>
        <translation>已重新连接到 %1。</translation>
    </message>
    <message>
        <source>Reattached to %1; job %2 continued.</source>
        <translation>已重新连接到 %1；任务 %2 继续运行。</translation>
    </message>
    <message>
        <source>Reattached to %1; jobs %2 continued.</source>
        <translation>已重新连接到 %1；任务 %2 继续运行。</translation>
    </message>
    <message>
        <source>%1 (%2 s after the link dropped)</source>
        <translation>%1（连接断开后 %2 秒）</translation>
    </message>
    <message>
        <source>Connection to %1 lost — reconnecting (attempt %2 of %3)…</source>
        <translation>与 %1 的连接已断开 — 正在重新连接（第 %2 次，共 %3 次）…</translation>
    </message>
    <message>
        <source>Lost (the log says why): %1.</source>
        <translation>已丢失（原因见日志）：%1。</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::JobHeading</name>
    <message>
        <source>job %1</source>
        <translation>任务 %1</translation>
    </message>
    <message>
        <source>job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>regional</source>
        <translation>分区编译</translation>
    </message>
    <message>
        <source>max-autotune</source>
        <translation>max-autotune</translation>
    </message>
    <message>
        <source>cancelled during %1</source>
        <translation>已在“%1”阶段取消</translation>
    </message>
    <message>
        <source>failed at %1: %2</source>
        <translation>在“%1”阶段失败：%2</translation>
    </message>
    <message>
        <source>done in %1 s</source>
        <translation>完成，用时 %1 秒</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>正在开始</translation>
    </message>
    <message>
        <source>running: %1 (%2%)</source>
        <translation>运行中：%1（%2%）</translation>
    </message>
    <message>
        <source>compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>profile</source>
        <translation>性能分析</translation>
    </message>
    <message>
        <source>quantize</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>sweep</source>
        <translation>形状扫描</translation>
    </message>
    <message>
        <source>numerics</source>
        <translation>数值分析</translation>
    </message>
    <message>
        <source>tune</source>
        <translation>调优</translation>
    </message>
    <message>
        <source>inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>%1 (torch %2)</source>
        <translation>%1（torch %2）</translation>
    </message>
    <message>
        <source>failed at %1 (%2)</source>
        <extracomment>%1 the stage, %2 the error code (model_error)</extracomment>
        <translation>在“%1”阶段失败（%2）</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::JobView</name>
    <message>
        <source>Nothing for job %1 (%2) yet: %3</source>
        <extracomment>%1 the job&apos;s number, %2 its kind (&quot;compile&quot;), %3 what the view shows when it has ended</extracomment>
        <translation>任务 %1（%2）暂无内容：%3</translation>
    </message>
    <message>
        <source>Nothing for job %1 (%2): %3</source>
        <extracomment>%1 the job&apos;s number, %2 its kind (&quot;profile&quot;), %3 what the dock shows</extracomment>
        <translation>任务 %1（%2）在此没有内容：%3</translation>
    </message>
    <message>
        <source>this view shows a compile&apos;s result, an exported bundle or why a job failed; the job&apos;s own dock shows its results</source>
        <translation>此视图显示编译的结果、导出的部署包或任务失败的原因；该任务自己的停靠窗口显示它的结果</translation>
    </message>
    <message>
        <source>its result appears here when it ends</source>
        <translation>任务结束后结果显示在这里</translation>
    </message>
    <message>
        <source>this dock shows the nodes and kernels of a compile, profile or numerics job</source>
        <translation>此停靠窗口显示编译、性能分析或数值分析任务的节点和内核</translation>
    </message>
    <message>
        <source>this dock shows the graph of a compile, profile or numerics job</source>
        <translation>此停靠窗口显示编译、性能分析或数值分析任务的图</translation>
    </message>
    <message>
        <source>this dock shows the kernels a compile generated and a profile timed</source>
        <translation>此停靠窗口显示编译生成、性能分析计时的内核</translation>
    </message>
    <message>
        <source>this dock shows a compile&apos;s memory plan</source>
        <translation>此停靠窗口显示编译的内存规划</translation>
    </message>
    <message>
        <source>this dock shows a profile, or a compile&apos;s quick measurement</source>
        <translation>此停靠窗口显示性能分析，或编译的快速测量</translation>
    </message>
    <message>
        <source>this dock shows a quantize job&apos;s schemes</source>
        <translation>此停靠窗口显示量化任务的各个方案</translation>
    </message>
    <message>
        <source>this dock shows a sweep&apos;s shapes</source>
        <translation>此停靠窗口显示形状扫描的各个形状</translation>
    </message>
    <message>
        <source>this dock shows a tune job&apos;s trials</source>
        <translation>此停靠窗口显示调优任务的各项试验</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::JobsPanel</name>
    <message>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>The session&apos;s jobs, newest first: pick one to show it in every dock</source>
        <translation>本会话的任务，最新的在前：选择一个即可在所有面板中显示它</translation>
    </message>
    <message>
        <source>No jobs yet: Compile, Profile or open a session</source>
        <translation>尚无任务：请编译、进行性能分析或打开一个会话</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::KernelTableModel</name>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Total (ms)</source>
        <translation>总计（毫秒）</translation>
    </message>
    <message>
        <source>Mean (ms)</source>
        <translation>平均（毫秒）</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Covered nodes</source>
        <translation>覆盖的节点</translation>
    </message>
    <message>
        <source>cpp: generated C++; triton: generated Triton; library: a call into ATen, oneDNN or cuBLAS</source>
        <translation>cpp：生成的 C++；triton：生成的 Triton；library：调用 ATen、oneDNN 或 cuBLAS</translation>
    </message>
    <message>
        <source>This kernel&apos;s share of the summed time of all kernels in the profile</source>
        <translation>此内核在性能分析所有内核总时间中的占比</translation>
    </message>
    <message>
        <source>Post-grad graph nodes this kernel computes (Inductor provenance)</source>
        <translation>此内核计算的 post-grad 计算图节点（Inductor 溯源）</translation>
    </message>
    <message>
        <source>Post-grad nodes: %1</source>
        <translation>Post-grad 节点：%1</translation>
    </message>
    <message>
        <source>From pre-grad nodes: %1</source>
        <translation>来自 pre-grad 节点：%1</translation>
    </message>
    <message>
        <source>Library op: %1</source>
        <translation>库算子：%1</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::KernelsPanel</name>
    <message>
        <source>Filter by kernel, kind or node…</source>
        <translation>按内核、类型或节点过滤…</translation>
    </message>
    <message>
        <source>Select a kernel to see its generated source.</source>
        <translation>选择一个内核以查看其生成的源代码。</translation>
    </message>
    <message>
        <source>No kernels: compile a model first.</source>
        <translation>没有内核：请先编译模型。</translation>
    </message>
    <message numerus="yes">
        <source>%n kernel(s) and library call(s)</source>
        <translation>
            <numerusform>%n 个内核和库调用</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — a library call, no generated source</source>
        <translation>%1 — 库调用，无生成的源代码</translation>
    </message>
    <message>
        <source>Calls %1</source>
        <translation>调用 %1</translation>
    </message>
    <message>
        <source>%1 — generated %2 source</source>
        <translation>%1 — 生成的 %2 源代码</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::LatencyChart</name>
    <message>
        <source>Compiled</source>
        <translation>编译后</translation>
    </message>
    <message>
        <source>Eager</source>
        <translation>Eager</translation>
    </message>
    <message>
        <source>Median latency per call (ms); whiskers p10–p90</source>
        <translation>每次调用的延迟中位数（毫秒）；误差线为 p10–p90</translation>
    </message>
    <message>
        <source>p90 %1 ms ▸</source>
        <translation>p90 %1 毫秒 ▸</translation>
    </message>
    <message>
        <source>Regional</source>
        <translation>区域编译</translation>
    </message>
    <message>
        <source>Median latency per call (ms); whiskers p10–p90 (greyed: unreliable)</source>
        <translation>每次调用的延迟中位数（毫秒）；误差线为 p10–p90（已置灰：测量不可靠）</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::LayerErrorModel</name>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <source>Mean abs error</source>
        <translation>平均绝对误差</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>余弦相似度</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::LogView</name>
    <message>
        <source>All messages</source>
        <translation>全部消息</translation>
    </message>
    <message>
        <source>Info and above</source>
        <translation>信息及以上</translation>
    </message>
    <message>
        <source>Warnings and errors</source>
        <translation>警告和错误</translation>
    </message>
    <message>
        <source>Errors only</source>
        <translation>仅错误</translation>
    </message>
    <message>
        <source>Engine messages appear here.</source>
        <translation>引擎消息将显示在这里。</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>job %1</source>
        <translation>任务 %1</translation>
    </message>
    <message>
        <source>engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>debug</source>
        <translation>调试</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>info</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>Filter messages…</source>
        <translation>过滤消息…</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::MainWindow</name>
    <message>
        <source>&amp;Compile</source>
        <translation>编译(&amp;C)</translation>
    </message>
    <message>
        <source>Export, compile with AOTInductor, verify and measure (Ctrl+R)</source>
        <translation>导出、使用 AOTInductor 编译、验证并测量（Ctrl+R）</translation>
    </message>
    <message>
        <source>C&amp;ancel</source>
        <translation>取消(&amp;A)</translation>
    </message>
    <message>
        <source>Cancel the running job (Esc)</source>
        <translation>取消正在运行的任务（Esc）</translation>
    </message>
    <message>
        <source>Open &amp;factory…</source>
        <translation>打开工厂函数(&amp;F)…</translation>
    </message>
    <message>
        <source>Pick a Python file with a function returning (model, example_inputs)</source>
        <translation>选择一个 Python 文件，其中的函数返回 (model, example_inputs)</translation>
    </message>
    <message>
        <source>&amp;Restart engine</source>
        <translation>重启引擎(&amp;R)</translation>
    </message>
    <message>
        <source>Compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>New folder per job</source>
        <translation>每个任务新建文件夹</translation>
    </message>
    <message>
        <source>Output folder. Empty: a new folder under %1 for every job.</source>
        <translation>输出文件夹。留空：每个任务在 %1 下新建一个文件夹。</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Choose the output folder</source>
        <translation>选择输出文件夹</translation>
    </message>
    <message>
        <source>Output:</source>
        <translation>输出：</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Restart engine</source>
        <translation>重启引擎</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Engine</source>
        <translation>引擎(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About AOT Studio</source>
        <translation>关于 AOT Studio(&amp;A)</translation>
    </message>
    <message>
        <source>About AOT Studio</source>
        <translation>关于 AOT Studio</translation>
    </message>
    <message>
        <source>&lt;h3&gt;AOT Studio %1&lt;/h3&gt;&lt;p&gt;A studio for PyTorch ahead-of-time compilation (torch.export and AOTInductor).&lt;/p&gt;&lt;p&gt;Engine: %2&lt;/p&gt;&lt;p&gt;Licensed under the GNU GPL, version 3 or later.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;AOT Studio %1&lt;/h3&gt;&lt;p&gt;用于 PyTorch 预先编译（torch.export 与 AOTInductor）的工作室。&lt;/p&gt;&lt;p&gt;引擎：%2&lt;/p&gt;&lt;p&gt;以 GNU GPL 第 3 版或更高版本授权。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>Engine %1 · torch %2 · CUDA %3 · %4</source>
        <translation>引擎 %1 · torch %2 · CUDA %3 · %4</translation>
    </message>
    <message>
        <source>unavailable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>no devices</source>
        <translation>无设备</translation>
    </message>
    <message>
        <source>Starting engine…</source>
        <translation>正在启动引擎…</translation>
    </message>
    <message>
        <source>Engine not running</source>
        <translation>引擎未运行</translation>
    </message>
    <message>
        <source>Open model factory</source>
        <translation>打开模型工厂函数</translation>
    </message>
    <message>
        <source>Python files (*.py)</source>
        <translation>Python 文件 (*.py)</translation>
    </message>
    <message>
        <source>Factory function</source>
        <translation>工厂函数</translation>
    </message>
    <message>
        <source>Function in %1 that returns (model, example_inputs):</source>
        <translation>%1 中返回 (model, example_inputs) 的函数：</translation>
    </message>
    <message>
        <source>Output folder</source>
        <translation>输出文件夹</translation>
    </message>
    <message>
        <source>The engine reports no CUDA device.</source>
        <translation>引擎报告没有 CUDA 设备。</translation>
    </message>
    <message>
        <source>Engine ready.</source>
        <translation>引擎已就绪。</translation>
    </message>
    <message>
        <source>&amp;Export Bundle…</source>
        <translation>导出部署包(&amp;E)…</translation>
    </message>
    <message>
        <source>Package the last compile&apos;s model as a bundle of batch-size packages (Ctrl+E)</source>
        <translation>将上次编译的模型打包为按批大小划分的部署包（Ctrl+E）</translation>
    </message>
    <message>
        <source>&amp;Profile</source>
        <translation>性能分析(&amp;P)</translation>
    </message>
    <message>
        <source>Compile, then measure eager against compiled: latency, kernels, memory, cold start and throughput (Ctrl+P)</source>
        <translation>先编译，再对比测量即时执行与编译后模型：延迟、内核、内存、冷启动和吞吐量 (Ctrl+P)</translation>
    </message>
    <message>
        <source>&amp;Quantize</source>
        <translation>量化(&amp;Q)</translation>
    </message>
    <message>
        <source>Compare quantization schemes: latency, memory, size and accuracy against fp32 eager (Ctrl+Shift+Q)</source>
        <translation>比较各量化方案相对于 fp32 即时执行的延迟、内存、大小和精度 (Ctrl+Shift+Q)</translation>
    </message>
    <message>
        <source>Run &amp;Settings…</source>
        <translation>运行设置(&amp;S)…</translation>
    </message>
    <message>
        <source>Data type, Inductor options, dynamic dimensions, measuring and schemes</source>
        <translation>数据类型、Inductor 选项、动态维度、测量和方案</translation>
    </message>
    <message>
        <source>Open &amp;Session…</source>
        <translation>打开会话(&amp;S)…</translation>
    </message>
    <message>
        <source>Show a saved session (.aotsession) without running anything</source>
        <translation>显示已保存的会话（.aotsession），不运行任何内容</translation>
    </message>
    <message>
        <source>&amp;Save Session As…</source>
        <translation>会话另存为(&amp;S)…</translation>
    </message>
    <message>
        <source>Copy this session and its job folders into a new folder</source>
        <translation>将此会话及其任务文件夹复制到新文件夹</translation>
    </message>
    <message>
        <source>Export &amp;Report…</source>
        <translation>导出报告(&amp;R)…</translation>
    </message>
    <message>
        <source>Write an HTML report with the charts as PNG and the tables as CSV</source>
        <translation>写出 HTML 报告，图表为 PNG，表格为 CSV</translation>
    </message>
    <message>
        <source>Reset &amp;Layout</source>
        <translation>重置布局(&amp;L)</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <source>Inspector</source>
        <translation>检查器</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>性能分析</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Recent Sessions</source>
        <translation>最近的会话</translation>
    </message>
    <message>
        <source>No recent sessions</source>
        <translation>没有最近的会话</translation>
    </message>
    <message>
        <source>Exporting the report failed: %1</source>
        <translation>导出报告失败：%1</translation>
    </message>
    <message>
        <source>Report written to %1.</source>
        <translation>报告已写入 %1。</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>报告已写入 %1</translation>
    </message>
    <message>
        <source>Export Report (a new folder)</source>
        <translation>导出报告（新文件夹）</translation>
    </message>
    <message>
        <source>S&amp;weep Shapes</source>
        <translation>形状扫描(&amp;W)</translation>
    </message>
    <message>
        <source>Verify the last compiled package across the shapes it accepts: every dynamic dimension&apos;s range ends, guards and interior sizes must match eager, sizes outside must be refused</source>
        <translation>在编译包接受的所有形状上验证最近一次编译的包：每个动态维度的范围端点、守卫两侧及内部尺寸都必须与 eager 一致，范围之外的尺寸必须被拒绝</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>形状扫描</translation>
    </message>
    <message>
        <source>Open &amp;Hugging Face folder…</source>
        <translation>打开 &amp;Hugging Face 模型文件夹…</translation>
    </message>
    <message>
        <source>Pick a local Hugging Face model folder (config.json, weights optional): its example inputs are built from the config and forward&apos;s signature; nothing is downloaded</source>
        <translation>选择本地 Hugging Face 模型文件夹（含 config.json，权重可选）：示例输入根据配置和 forward 的签名生成；不会下载任何内容</translation>
    </message>
    <message>
        <source>sample:NAME, path/to/file.py:factory, hf:FOLDER, timm:NAME or torchvision:NAME (options after ?: class, batch, seq, size, weights); SPEC#PATH compiles the sub-module PATH</source>
        <translation>sample:名称、path/to/file.py:factory、hf:文件夹、timm:名称或 torchvision:名称（? 之后的选项：class、batch、seq、size、weights）；SPEC#PATH 编译子模块 PATH</translation>
    </message>
    <message>
        <source>Open Hugging Face model folder</source>
        <translation>打开 Hugging Face 模型文件夹</translation>
    </message>
    <message>
        <source>Not a model folder</source>
        <translation>不是模型文件夹</translation>
    </message>
    <message>
        <source>%1 has no config.json. Pick the folder that holds the model&apos;s config.json (for a diffusers pipeline, one of its component folders such as unet/).</source>
        <translation>%1 中没有 config.json。请选择包含模型 config.json 的文件夹（对于 diffusers 流水线，选择其组件文件夹之一，例如 unet/）。</translation>
    </message>
    <message>
        <source>&amp;Connect to Remote Engine…</source>
        <translation>连接到远程引擎(&amp;C)…</translation>
    </message>
    <message>
        <source>Run the engine on another machine over SSH</source>
        <translation>通过 SSH 在另一台机器上运行引擎</translation>
    </message>
    <message>
        <source>Use &amp;Local Engine</source>
        <translation>使用本地引擎(&amp;L)</translation>
    </message>
    <message>
        <source>%1 (over SSH) · %2</source>
        <translation>%1（经由 SSH）· %2</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Not connected to %1</source>
        <translation>未连接到 %1</translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation>重新连接</translation>
    </message>
    <message>
        <source>Sweep a &amp;Bundle…</source>
        <translation>扫描部署包(&amp;B)…</translation>
    </message>
    <message>
        <source>Verify an exported bundle (a folder or a .zip) across its shapes and its bucket policy; its signature is checked against the engine&apos;s trust store first</source>
        <translation>在所有形状和档位选择策略上验证已导出的部署包（文件夹或 .zip）；先用引擎的信任存储检查其签名</translation>
    </message>
    <message>
        <source>Open &amp;Job Folder…</source>
        <translation>打开作业文件夹(&amp;J)…</translation>
    </message>
    <message>
        <source>Show the folder of a command-line job: aotstudio-cli numerics --out DIR (the capture graph coloured by each node&apos;s numerical error) or tune --out DIR (the trials, their Pareto front and the recipe)</source>
        <translation>显示命令行作业的文件夹：aotstudio-cli numerics --out DIR（按每个节点的数值误差为捕获图着色）或 tune --out DIR（各次试验、其帕累托前沿和配方）</translation>
    </message>
    <message>
        <source>Compare &amp;With…</source>
        <translation>与…比较(&amp;W)</translation>
    </message>
    <message>
        <source>Two finished jobs side by side: options, versions, package size, kernels with their source diffs and times, and the graph of each stage</source>
        <translation>并排比较两个已完成的作业：选项、版本、包大小、内核及其源码差异和时间，以及每个阶段的图</translation>
    </message>
    <message>
        <source>Tune</source>
        <translation>调优</translation>
    </message>
    <message>
        <source>Compare %1 with %2</source>
        <translation>比较 %1 与 %2</translation>
    </message>
    <message>
        <source>Job %1: %2 %3 — %4</source>
        <translation>作业 %1：%2 %3 — %4</translation>
    </message>
    <message>
        <source>Compare: the first job folder (A)</source>
        <translation>比较：第一个作业文件夹（A）</translation>
    </message>
    <message>
        <source>Another job folder…</source>
        <translation>其他作业文件夹…</translation>
    </message>
    <message>
        <source>Compare With</source>
        <translation>与…比较</translation>
    </message>
    <message>
        <source>Compare %1 (A) with (B):</source>
        <translation>将 %1（A）与（B）比较：</translation>
    </message>
    <message>
        <source>Compare with: the second job folder (B)</source>
        <translation>比较对象：第二个作业文件夹（B）</translation>
    </message>
    <message>
        <source>Find Numerical &amp;Divergence</source>
        <translation>查找数值发散(&amp;D)</translation>
    </message>
    <message>
        <source>Run every node of the captured graph against a float64 reference, eager and compiled, and colour the graph by each node&apos;s error: where do they first diverge?</source>
        <translation>将捕获图的每个节点（eager 与编译后）对照 float64 参考运行，并按各节点的误差为图着色：它们最先在哪里发散？</translation>
    </message>
    <message>
        <source>&amp;Tune Compile Recipe…</source>
        <translation>调优编译配方(&amp;T)…</translation>
    </message>
    <message>
        <source>Compile the model under several option sets within a time budget, verify and time each, and pick the fastest recipe within the error bound (the Tune dock)</source>
        <translation>在时间预算内用多组选项编译模型，逐一验证并计时，选出误差界限内最快的配方（“调优”面板）</translation>
    </message>
    <message>
        <source>C&amp;hoose Local Engine…</source>
        <translation>选择本地引擎(&amp;H)…</translation>
    </message>
    <message>
        <source>Pick the venv the aotstudio-engine wheel is installed in</source>
        <translation>选择安装了 aotstudio-engine wheel 的 venv</translation>
    </message>
    <message>
        <source>&amp;Inputs…</source>
        <translation>输入(&amp;I)…</translation>
    </message>
    <message>
        <source>The model&apos;s example inputs (names, shapes, dtypes): edit their shapes and mark dimensions dynamic (Ctrl+I)</source>
        <translation>模型的示例输入（名称、形状、数据类型）：编辑形状并把维度标记为动态（Ctrl+I）</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Forget Chosen Engine</source>
        <translation>忘记所选引擎(&amp;F)</translation>
    </message>
    <message>
        <source>Stop using the venv chosen with Choose Local Engine…: the engine is then looked for in AOTSTUDIO_ENGINE, next to the studio, on PATH and in ~/.local/share/aotstudio/engine-venv</source>
        <translation>不再使用通过“选择本地引擎…”选定的 venv：之后依次在 AOTSTUDIO_ENGINE、工作室程序旁、PATH 和 ~/.local/share/aotstudio/engine-venv 中查找引擎</translation>
    </message>
    <message>
        <source>The last compile was regional: it has no package of the whole model to sweep. Compile without “Regional compile” (Run Settings) first.</source>
        <translation>最近一次编译是分区域编译：没有整个模型的编译包可供扫描。请先在不勾选“分区域编译”（运行设置）的情况下编译。</translation>
    </message>
    <message>
        <source>The last compile was regional: a bundle is exported from a compile of the whole model. Compile without “Regional compile” (Run Settings) first.</source>
        <translation>最近一次编译是分区域编译：部署包需从整个模型的编译结果导出。请先在不勾选“分区域编译”（运行设置）的情况下编译。</translation>
    </message>
    <message>
        <source>Wall time of the running job (of the last one when none runs)</source>
        <translation>正在运行的任务的耗时（没有任务运行时为上一个任务的）</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1:%2 min</source>
        <translation>%1:%2 min</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Make &amp;Repro</source>
        <translation>生成复现(&amp;R)</translation>
    </message>
    <message>
        <source>The Python + torch the jobs are built with: the studio&apos;s own, or a target environment made with aotstudio-cli target add (e.g. the torch a GPU service runs). Targets live in %1.</source>
        <translation>构建作业所用的 Python + torch：AOT Studio 自带的，或用 aotstudio-cli target add 创建的目标环境（例如某个 GPU 服务所运行的 torch）。目标环境位于 %1。</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>&amp;Capture From Script…</source>
        <translation>从脚本捕获(&amp;C)…</translation>
    </message>
    <message>
        <source>Run your own serving script, record every call of one module, and compile or export with the dynamic ranges and buckets its traffic needs</source>
        <translation>运行您自己的服务脚本，录制某个模块的每次调用，并按其流量所需的动态范围和档位进行编译或导出</translation>
    </message>
    <message>
        <source>&amp;Next Pass</source>
        <translation>下一个优化遍(&amp;N)</translation>
    </message>
    <message>
        <source>Show the graph after the next pass of the job shown (Alt+Down)</source>
        <translation>显示当前作业下一个优化遍之后的计算图（Alt+Down）</translation>
    </message>
    <message>
        <source>&amp;Previous Pass</source>
        <translation>上一个优化遍(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Fit Graph</source>
        <translation>计算图适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Studio&apos;s own</source>
        <translation>AOT Studio 自带</translation>
    </message>
    <message>
        <source>The engine installed with the studio</source>
        <translation>随 AOT Studio 安装的引擎</translation>
    </message>
    <message>
        <source>%1 (torch %2, Python %3)</source>
        <translation>%1（torch %2，Python %3）</translation>
    </message>
    <message>
        <source>%1 (unusable)</source>
        <translation>%1（不可用）</translation>
    </message>
    <message>
        <source>CUDA: %1</source>
        <translation>CUDA：%1</translation>
    </message>
    <message>
        <source>%1 (missing)</source>
        <translation>%1（缺失）</translation>
    </message>
    <message>
        <source>The repro reproduces the failure in a fresh process (%1 s).</source>
        <translation>该复现在新进程中重现了失败（%1 秒）。</translation>
    </message>
    <message>
        <source>The repro did NOT reproduce the failure in a fresh process: the failure may be flaky, or depend on the engine&apos;s machine, its settings or the engine process.</source>
        <translation>该复现在新进程中未能重现失败：失败可能不稳定，或取决于引擎所在机器、其设置或引擎进程。</translation>
    </message>
    <message>
        <source>Whether the repro reproduces is not known: %1.</source>
        <translation>无法确定该复现能否重现失败：%1。</translation>
    </message>
    <message>
        <source>Repro</source>
        <translation>复现</translation>
    </message>
    <message>
        <source>Folder: %1 (%2)</source>
        <translation>文件夹：%1（%2）</translation>
    </message>
    <message>
        <source>Folder on %1: %2 (%3)</source>
        <translation>%1 上的文件夹：%2（%3）</translation>
    </message>
    <message>
        <source>Run it again: cd %1 &amp;&amp; python repro.py</source>
        <translation>再次运行：cd %1 &amp;&amp; python repro.py</translation>
    </message>
    <message>
        <source>Subgraph: node %1 (%2), %3 side</source>
        <translation>子图：节点 %1（%2），%3 侧</translation>
    </message>
    <message>
        <source>Open Folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Write a folder that reproduces a failure with plain torch (after a compile that failed to compile or verify, or a numerics job that found a divergence)</source>
        <translation>写出一个用纯 torch 复现失败的文件夹（在编译或验证失败的编译之后，或在发现数值发散的数值分析作业之后）</translation>
    </message>
    <message>
        <source>Write a folder that reproduces %1 with plain torch and run it once in a fresh process (%2)</source>
        <translation>写出一个用纯 torch 复现 %1 的文件夹，并在新进程中运行一次（%2）</translation>
    </message>
    <message>
        <source>target %1 · %2</source>
        <translation>目标 %1 · %2</translation>
    </message>
    <message>
        <source>Reconnecting to %1…</source>
        <translation>正在重新连接 %1…</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::MeasurementText</name>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>(%1% CI %2–%3)</source>
        <translation>（%1% 置信区间 %2–%3）</translation>
    </message>
    <message numerus="yes">
        <source>(no interval: %n block(s))</source>
        <translation>
            <numerusform>（无置信区间：仅 %n 个分块）</numerusform>
        </translation>
    </message>
    <message>
        <source>(no interval)</source>
        <translation>（无置信区间）</translation>
    </message>
    <message>
        <source>%1: compiled is slower than eager</source>
        <translation>%1：编译后比 eager 慢</translation>
    </message>
    <message>
        <source>%1: slower than fp32 eager</source>
        <translation>%1：比 fp32 eager 慢</translation>
    </message>
    <message>
        <source>%1: the bundle starts slower than eager</source>
        <translation>%1：部署包启动比 eager 慢</translation>
    </message>
    <message>
        <source>%1: no clear difference (the interval holds 1)</source>
        <translation>%1：无明显差异（置信区间包含 1）</translation>
    </message>
    <message>
        <source>%1 ms (no interval)</source>
        <translation>%1 毫秒（无置信区间）</translation>
    </message>
    <message>
        <source>%1 ms (95% CI %2–%3)</source>
        <translation>%1 毫秒（95% 置信区间 %2–%3）</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>noisy</source>
        <translation>有噪声</translation>
    </message>
    <message>
        <source>unreliable</source>
        <translation>不可靠</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>not assessed</source>
        <translation>未评估</translation>
    </message>
    <message>
        <source>not assessed: the result predates machine verdicts</source>
        <translation>未评估：该结果早于机器状态判定</translation>
    </message>
    <message>
        <source>ok: the machine allowed a fair measurement</source>
        <translation>正常：机器状态允许公平测量</translation>
    </message>
    <message>
        <source>ok: %1</source>
        <translation>正常：%1</translation>
    </message>
    <message>
        <source>noisy: use these figures with care</source>
        <translation>有噪声：请谨慎使用这些数据</translation>
    </message>
    <message>
        <source>noisy: %1</source>
        <translation>有噪声：%1</translation>
    </message>
    <message>
        <source>unreliable: the machine did not allow a fair measurement</source>
        <translation>不可靠：机器状态不允许公平测量</translation>
    </message>
    <message>
        <source>unreliable: %1</source>
        <translation>不可靠：%1</translation>
    </message>
    <message>
        <source>unknown: the machine load could not be read</source>
        <translation>未知：无法读取机器负载</translation>
    </message>
    <message>
        <source>unknown: the machine load could not be read (%1)</source>
        <translation>未知：无法读取机器负载（%1）</translation>
    </message>
    <message>
        <source>not stated</source>
        <translation>未说明</translation>
    </message>
    <message numerus="yes">
        <source>%1 (of %n usable CPU(s))</source>
        <translation>
            <numerusform>%1（共 %n 个可用 CPU）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2% CI %3–%4)</source>
        <translation>%1（%2% 置信区间 %3–%4）</translation>
    </message>
    <message>
        <source>%1: the regional model is slower than the whole one</source>
        <translation>%1：分区域编译的模型比整体编译的慢</translation>
    </message>
    <message>
        <source>no reliable ratio</source>
        <translation>无可靠比值</translation>
    </message>
    <message>
        <source>no reliable ratio: its %1% interval %2–%3 is wider than the estimate %4×</source>
        <translation>无可靠比值：其 %1% 区间 %2–%3 比估计值 %4× 还宽</translation>
    </message>
    <message numerus="yes">
        <source>%1 (+%n more)</source>
        <translation>
            <numerusform>%1（另有 %n 条）</numerusform>
        </translation>
    </message>
    <message>
        <source>Measurement %1 because:</source>
        <translation>测量结果为 %1，原因：</translation>
    </message>
    <message>
        <source>Notes:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <source>measurement: %1: %2 (every reason: the view&apos;s Measurement line)</source>
        <extracomment>%1 the verdict word (unreliable, noisy), %2 its first reason&apos;s name</extracomment>
        <translation>测量：%1：%2（全部原因见视图中的“测量”一行）</translation>
    </message>
    <message>
        <source>%1 (greyed: unreliable)</source>
        <translation>%1（已置灰：测量不可靠）</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::MemoryPanel</name>
    <message>
        <source>none: lives inside its kernel</source>
        <translation>无：只存在于其内核内部</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>新分配</translation>
    </message>
    <message>
        <source>reuses %1</source>
        <translation>复用 %1</translation>
    </message>
    <message>
        <source>returned by the extern call</source>
        <translation>由外部调用返回</translation>
    </message>
    <message>
        <source>none (a view or alias)</source>
        <translation>无（视图或别名）</translation>
    </message>
    <message>
        <source>Live memory along the kernel order</source>
        <translation>沿内核执行顺序的活跃内存</translation>
    </message>
    <message>
        <source>Buffer</source>
        <translation>缓冲区</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Lifetime (steps)</source>
        <translation>生命周期（步）</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Graph nodes</source>
        <translation>图节点</translation>
    </message>
    <message>
        <source>Compile a model to see how its package plans memory: every buffer&apos;s lifetime, which ones reuse storage, and where the peak is.</source>
        <translation>编译一个模型即可查看其编译包如何规划内存：每个缓冲区的生命周期、哪些复用存储，以及峰值出现在哪里。</translation>
    </message>
    <message>
        <source>The compile failed: it has no memory plan.</source>
        <translation>编译失败：没有内存规划。</translation>
    </message>
    <message>
        <source>The memory plan appears when the compile has generated its code.</source>
        <translation>编译生成代码后将显示内存规划。</translation>
    </message>
    <message>
        <source>This compile has no memory plan (an engine from before plans).</source>
        <translation>此次编译没有内存规划（引擎版本早于内存规划功能）。</translation>
    </message>
    <message>
        <source>No memory plan: %1</source>
        <translation>没有内存规划：%1</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Fetching %1…</source>
        <translation>正在获取 %1…</translation>
    </message>
    <message>
        <source>%1 cannot be shown: %2</source>
        <translation>无法显示 %1：%2</translation>
    </message>
    <message>
        <source>No memory plan.</source>
        <translation>没有内存规划。</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>at step %1</source>
        <translation>位于第 %1 步</translation>
    </message>
    <message>
        <source>&lt;b&gt;Peak&lt;/b&gt;: %1 predicted by Inductor; %2 planned (what the generated code allocates, reused storage counted once)</source>
        <translation>&lt;b&gt;峰值&lt;/b&gt;：Inductor 预测 %1；规划 %2（生成代码实际分配的内存，复用的存储只计一次）</translation>
    </message>
    <message>
        <source>Weights and constants: %1, held for the whole run (not in the curves).</source>
        <translation>权重与常量：%1，整个运行期间常驻（不计入曲线）。</translation>
    </message>
    <message>
        <source>Measured peak: %1.</source>
        <translation>实测峰值：%1。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Partial&lt;/b&gt;: %1</source>
        <translation>&lt;b&gt;不完整&lt;/b&gt;：%1</translation>
    </message>
    <message>
        <source>Bars: %1</source>
        <translation>条形：%1</translation>
    </message>
    <message>
        <source>reuses a freed buffer&apos;s storage</source>
        <translation>复用已释放缓冲区的存储</translation>
    </message>
    <message>
        <source>returned by an extern call</source>
        <translation>由外部调用返回</translation>
    </message>
    <message>
        <source>no storage of its own</source>
        <translation>没有自己的存储</translation>
    </message>
    <message>
        <source>%1 – end (output)</source>
        <translation>%1 – 结束（输出）</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>Written by %1, last read by %2</source>
        <translation>由 %1 写入，最后由 %2 读取</translation>
    </message>
    <message>
        <source>the caller</source>
        <translation>调用方</translation>
    </message>
    <message>
        <source>predicted (Inductor)</source>
        <translation>预测（Inductor）</translation>
    </message>
    <message>
        <source>planned (allocated by the code)</source>
        <translation>规划（代码实际分配）</translation>
    </message>
    <message>
        <source>Live (%1)</source>
        <translation>活跃内存（%1）</translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation>峰值 %1</translation>
    </message>
    <message>
        <source>Step (kernel order)</source>
        <translation>步（内核执行顺序）</translation>
    </message>
    <message>
        <source>Buffers</source>
        <translation>缓冲区</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::NodeTableModel</name>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Source line</source>
        <translation>源代码行</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::PipelineModel</name>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>优化遍</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>Δ nodes</source>
        <translation>Δ 节点数</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间（毫秒）</translation>
    </message>
    <message>
        <source>This pass ran and left the graph unchanged.</source>
        <translation>此优化遍已运行，但未改变计算图。</translation>
    </message>
    <message>
        <source>Scheduler fusion: %1 nodes before, %2 after.</source>
        <translation>调度器融合：之前 %1 个节点，之后 %2 个。</translation>
    </message>
    <message numerus="yes">
        <source>%n generated kernel(s) and library calls.</source>
        <translation>
            <numerusform>%n 个生成的内核和库调用。</numerusform>
        </translation>
    </message>
    <message>
        <source>No snapshot was written (snapshots were off).</source>
        <translation>未写入快照（快照已关闭）。</translation>
    </message>
    <message>
        <source>running…</source>
        <translation>运行中…</translation>
    </message>
    <message>
        <source>The stage the job is running now; its passes appear as they finish.</source>
        <translation>任务当前正在运行的阶段；各个 pass 完成时会逐行出现。</translation>
    </message>
    <message>
        <source>unattributed</source>
        <translation>未归属</translation>
    </message>
    <message>
        <source>C++ build (compiler, linker)</source>
        <translation>C++ 构建（编译器、链接器）</translation>
    </message>
    <message>
        <source>lowering, codegen, packaging</source>
        <translation>降级、代码生成、打包</translation>
    </message>
    <message>
        <source>rest of the stage</source>
        <translation>该阶段的其余部分</translation>
    </message>
    <message>
        <source>Engine time no stage claims: from receiving the request to sending its result, less the stages&apos; times (waiting in the queue, writing the result files).</source>
        <translation>不属于任何阶段的引擎时间：从收到请求到发出结果的时间减去各阶段的时间（排队等待、写入结果文件）。</translation>
    </message>
    <message>
        <source>Wall time of the native compiler and linker Inductor ran to build the package.</source>
        <translation>Inductor 为构建包而运行的本机编译器和链接器的墙钟时间。</translation>
    </message>
    <message>
        <source>The compile stage&apos;s time outside its passes and the C++ build: Inductor&apos;s lowering, scheduling and fusion, code generation and writing the package.</source>
        <translation>编译阶段中不属于各 pass 和 C++ 构建的时间：Inductor 的降级、调度与融合、代码生成以及写入包。</translation>
    </message>
    <message>
        <source>The stage&apos;s time outside the rows above.</source>
        <translation>该阶段中不属于以上各行的时间。</translation>
    </message>
    <message>
        <source>The whole stage: no pass of it is listed.</source>
        <translation>整个阶段：未列出其中的 pass。</translation>
    </message>
    <message>
        <source>load</source>
        <translation>加载</translation>
    </message>
    <message>
        <source>export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>decompose</source>
        <translation>分解</translation>
    </message>
    <message>
        <source>compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>load package</source>
        <translation>加载编译包</translation>
    </message>
    <message>
        <source>verify</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>measure</source>
        <translation>测量</translation>
    </message>
    <message>
        <source>reused</source>
        <translation>已复用</translation>
    </message>
    <message>
        <source>Reused from the compile cache: this pass ran in an earlier compile of the same program, so it took no time in this job.
%1</source>
        <translation>从编译缓存复用：此优化遍已在先前一次相同程序的编译中运行，本次作业未在其上花费时间。
%1</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::PipelinePanel</name>
    <message>
        <source>Show unchanged passes</source>
        <translation>显示无变化的优化遍</translation>
    </message>
    <message>
        <source>Also list the passes that ran and left the graph as it was</source>
        <translation>同时列出已运行但未改变计算图的优化遍</translation>
    </message>
    <message>
        <source>%1 snapshots; %2 passes changed the graph, %3 left it unchanged.</source>
        <translation>%1 个快照；%2 个优化遍修改了计算图，%3 个未改变计算图。</translation>
    </message>
    <message>
        <source>No compile yet: open a model and press Compile.</source>
        <translation>尚未编译：请打开模型并点击“编译”。</translation>
    </message>
    <message>
        <source>The stages account for %1 of the engine&apos;s %2 s.</source>
        <translation>各阶段占引擎 %2 秒中的 %1。</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ProfilePanel</name>
    <message>
        <source>Eager (Python)</source>
        <translation>即时执行（Python）</translation>
    </message>
    <message>
        <source>AOTInductor</source>
        <translation>AOTInductor</translation>
    </message>
    <message>
        <source>NativeRT</source>
        <translation>NativeRT</translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>Median latency per call</source>
        <translation>每次调用的延迟中位数</translation>
    </message>
    <message>
        <source>Latency distribution</source>
        <translation>延迟分布</translation>
    </message>
    <message>
        <source>Peak memory per variant</source>
        <translation>各变体的峰值内存</translation>
    </message>
    <message>
        <source>Cold start</source>
        <translation>冷启动</translation>
    </message>
    <message>
        <source>Throughput and p99 latency against runners</source>
        <translation>吞吐量和 p99 延迟随运行器数量的变化</translation>
    </message>
    <message>
        <source>Top kernels by total time</source>
        <translation>按总时间排列的主要内核</translation>
    </message>
    <message>
        <source>Kernels of:</source>
        <translation>内核来自：</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Top kernels</source>
        <translation>主要内核</translation>
    </message>
    <message>
        <source>Cold start &amp;&amp; throughput</source>
        <translation>冷启动 &amp;&amp; 吞吐量</translation>
    </message>
    <message>
        <source>%1
kind %2 · %3 calls
total %4, mean %5 · %6 of wall time</source>
        <translation>%1
类型 %2 · %3 次调用
总计 %4，平均 %5 · 占墙钟时间 %6</translation>
    </message>
    <message>
        <source>covers %1</source>
        <translation>覆盖 %1</translation>
    </message>
    <message>
        <source>grid %1, block %2, %3 registers, stream %4</source>
        <translation>网格 %1，线程块 %2，%3 个寄存器，流 %4</translation>
    </message>
    <message>
        <source>No profile yet: run Profile (or Compile) to measure the model.</source>
        <translation>尚无性能分析：请运行“性能分析”（或“编译”）来测量模型。</translation>
    </message>
    <message>
        <source>Not measured: no profile result.</source>
        <translation>未测量：没有性能分析结果。</translation>
    </message>
    <message>
        <source>Not measured: a compile result has only latency. Run Profile for memory, kernels, the timeline, cold start and throughput.</source>
        <translation>未测量：编译结果只包含延迟。请运行“性能分析”以获取内存、内核、时间线、冷启动和吞吐量数据。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2 · %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · %2 · %3</translation>
    </message>
    <message>
        <source>%1 not available: %2</source>
        <translation>%1 不可用：%2</translation>
    </message>
    <message>
        <source>Collector %1, its overhead: %2</source>
        <translation>采集器 %1，其开销：%2</translation>
    </message>
    <message>
        <source>Collector %1 did not start: %2</source>
        <translation>采集器 %1 未启动：%2</translation>
    </message>
    <message>
        <source>⚠ %1</source>
        <translation>⚠ %1</translation>
    </message>
    <message>
        <source>Not measured: no variant has a latency.</source>
        <translation>未测量：没有变体有延迟数据。</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>%1
not available</source>
        <translation>%1
不可用</translation>
    </message>
    <message>
        <source>%1
%2</source>
        <translation>%1
%2</translation>
    </message>
    <message>
        <source>p90 %1</source>
        <translation>p90 %1</translation>
    </message>
    <message>
        <source>p99 %1</source>
        <translation>p99 %1</translation>
    </message>
    <message>
        <source>%1: median %2
p10 %3, p90 %4, p99 %5
mean %6 ± %7, %8 runs</source>
        <translation>%1：中位数 %2
p10 %3，p90 %4，p99 %5
平均 %6 ± %7，%8 次运行</translation>
    </message>
    <message>
        <source>traced median %1 (collector overhead %2%)</source>
        <translation>跟踪时中位数 %1（采集器开销 %2%）</translation>
    </message>
    <message>
        <source>CUDA events: %1</source>
        <translation>CUDA 事件：%1</translation>
    </message>
    <message>
        <source>%1, collector on</source>
        <translation>%1，采集器开启</translation>
    </message>
    <message>
        <source>Not measured: no variant has latency percentiles.</source>
        <translation>未测量：没有变体有延迟百分位数。</translation>
    </message>
    <message>
        <source>ms per call (log)</source>
        <translation>每次调用的毫秒数（对数）</translation>
    </message>
    <message>
        <source>Latency distribution: box p10–p90, whiskers min–p99, ○ max; pale: collector on</source>
        <translation>延迟分布：箱体为 p10–p90，须线为最小值–p99，○ 为最大值；浅色：采集器开启</translation>
    </message>
    <message>
        <source>Latency distribution: box p10–p90, whiskers min–p99, ○ max</source>
        <translation>延迟分布：箱体为 p10–p90，须线为最小值–p99，○ 为最大值</translation>
    </message>
    <message>
        <source>%1%2
min %3, p10 %4, median %5
p90 %6, p99 %7, max %8</source>
        <translation>%1%2
最小值 %3，p10 %4，中位数 %5
p90 %6，p99 %7，最大值 %8</translation>
    </message>
    <message>
        <source> (collector on)</source>
        <translation>（采集器开启）</translation>
    </message>
    <message>
        <source>not available</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Peak bytes in use above the level before the call (%1) · %2</source>
        <translation>调用期间超出调用前水平的峰值占用字节数（%1）· %2</translation>
    </message>
    <message>
        <source>%1: peak %2 (%L3 bytes)
method %4</source>
        <translation>%1：峰值 %2（%L3 字节）
方法 %4</translation>
    </message>
    <message>
        <source>Not measured: no variant has a peak memory figure.</source>
        <translation>未测量：没有变体有峰值内存数据。</translation>
    </message>
    <message>
        <source>GPU: not measured (a CPU profile).</source>
        <translation>GPU：未测量（CPU 性能分析）。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;GPU busy&lt;/b&gt; (kernel time over wall time): %1</source>
        <translation>&lt;b&gt;GPU 繁忙度&lt;/b&gt;（内核时间占墙钟时间比例）：%1</translation>
    </message>
    <message>
        <source>%1%2: %3× %4 in %5</source>
        <translation>%1%2：%3× %4，于 %5</translation>
    </message>
    <message numerus="yes">
        <source>⚠ %n activity record(s) dropped by CUPTI</source>
        <translation>
            <numerusform>⚠ CUPTI 丢弃了 %n 条活动记录</numerusform>
        </translation>
    </message>
    <message>
        <source>Not measured: the collector did not start (%1).</source>
        <translation>未测量：采集器未启动（%1）。</translation>
    </message>
    <message>
        <source>Not measured: the profile has no trace (it ran with trace off).</source>
        <translation>未测量：性能分析中没有跟踪（运行时关闭了跟踪）。</translation>
    </message>
    <message>
        <source>Not available: the trace %1 cannot be read (%2).</source>
        <translation>不可用：无法读取跟踪 %1（%2）。</translation>
    </message>
    <message>
        <source>Not measured: the trace %1 has no ranges.</source>
        <translation>未测量：跟踪 %1 中没有区间。</translation>
    </message>
    <message>
        <source>%1: ATen ops</source>
        <translation>%1：ATen 算子</translation>
    </message>
    <message>
        <source>%1: kernels</source>
        <translation>%1：内核</translation>
    </message>
    <message>
        <source>Not measured: the profile has no kernel ranges (the collector was off).</source>
        <translation>未测量：性能分析中没有内核区间（采集器已关闭）。</translation>
    </message>
    <message>
        <source>Not measured: no kernels for %1.</source>
        <translation>未测量：%1 没有内核。</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Total time in the traced pass (ms) · share of the variant&apos;s wall time</source>
        <translation>跟踪运行中的总时间（毫秒）· 占该变体墙钟时间的比例</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Top kernels by total time: %1</source>
        <translation>按总时间排列的主要内核：%1</translation>
    </message>
    <message>
        <source>Cold start not measured: skipped (cold_start_runs 0) or aotstudio-run was not found.</source>
        <translation>冷启动未测量：已跳过（cold_start_runs 为 0）或未找到 aotstudio-run。</translation>
    </message>
    <message>
        <source>Package
(aotstudio-run)</source>
        <translation>包
（aotstudio-run）</translation>
    </message>
    <message>
        <source>Eager
(Python)</source>
        <translation>即时执行
（Python）</translation>
    </message>
    <message numerus="yes">
        <source>Fresh process to first output (ms, median of %n run(s))</source>
        <translation>
            <numerusform>从新进程启动到首次输出（ms，%n 次运行的中位数）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2
%3 of %4 runs succeeded</source>
        <translation>%1：%2
%4 次运行中 %3 次成功</translation>
    </message>
    <message>
        <source>Package (aotstudio-run, no Python)</source>
        <translation>包（aotstudio-run，无 Python）</translation>
    </message>
    <message>
        <source>Eager (import torch, build, run)</source>
        <translation>即时执行（import torch、构建、运行）</translation>
    </message>
    <message>
        <source>Throughput not measured (throughput: []).</source>
        <translation>吞吐量未测量（throughput: []）。</translation>
    </message>
    <message>
        <source>calls/s</source>
        <translation>次调用/s</translation>
    </message>
    <message>
        <source>p99 latency (ms)</source>
        <translation>p99 延迟（毫秒）</translation>
    </message>
    <message>
        <source>Runners (threads calling the package at once)</source>
        <translation>运行器（同时调用包的线程）</translation>
    </message>
    <message>
        <source>Throughput (calls/s)</source>
        <translation>吞吐量（次调用/s）</translation>
    </message>
    <message>
        <source>p99 latency per call (ms)</source>
        <translation>每次调用的 p99 延迟（毫秒）</translation>
    </message>
    <message numerus="yes">
        <source>%n runner(s), %1 threads
%2 calls/s
median %3, p99 %4</source>
        <translation>
            <numerusform>%n 个运行器，%1 个线程
%2 次调用/s
中位数 %3，p99 %4</numerusform>
        </translation>
    </message>
    <message>
        <source>profiled at %1</source>
        <translation>分析于 %1</translation>
    </message>
    <message>
        <source>%1: %2 the speed of eager</source>
        <translation>%1：速度为 eager 的 %2</translation>
    </message>
    <message>
        <source>Measurement: %1</source>
        <translation>测量：%1</translation>
    </message>
    <message>
        <source>Threads: %1</source>
        <translation>线程：%1</translation>
    </message>
    <message>
        <source> · %1
%2</source>
        <translation> · %1
%2</translation>
    </message>
    <message>
        <source>Cold start: eager / bundle %1</source>
        <translation>冷启动：eager / 部署包 %1</translation>
    </message>
    <message>
        <source>spawn to main</source>
        <translation>启动到 main</translation>
    </message>
    <message>
        <source>verify</source>
        <translation>校验</translation>
    </message>
    <message>
        <source>load</source>
        <translation>加载</translation>
    </message>
    <message>
        <source>first run</source>
        <translation>首次运行</translation>
    </message>
    <message>
        <source>Bundle
(aotstudio-run)</source>
        <translation>部署包
(aotstudio-run)</translation>
    </message>
    <message>
        <source>%1 interval</source>
        <translation>%1 置信区间</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>eager</source>
        <translation>eager</translation>
    </message>
    <message numerus="yes">
        <source>Fresh process to first output (ms, medians of %n run(s); whiskers: 95% CI)</source>
        <translation>
            <numerusform>新进程到首个输出（ms，%n 次运行的中位数；须线：95% 置信区间）</numerusform>
        </translation>
    </message>
    <message>
        <source>Eager (import torch, build, run): %1</source>
        <translation>Eager（导入 torch、构建、运行）：%1</translation>
    </message>
    <message>
        <source>Other (outside the runtime&apos;s phases); the bundle&apos;s median total is %1</source>
        <translation>其他（运行时各阶段之外）；部署包总时间中位数为 %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2
median of %n run(s)</source>
        <translation>
            <numerusform>%1：%2
%n 次运行的中位数</numerusform>
        </translation>
    </message>
    <message>
        <source>phases: %1 ms</source>
        <translation>各阶段：%1 毫秒</translation>
    </message>
    <message>
        <source>traced / untraced %1</source>
        <translation>跟踪 / 未跟踪 %1</translation>
    </message>
    <message>
        <source>⚠ time lost between calls</source>
        <translation>⚠ 调用之间有时间损失</translation>
    </message>
    <message>
        <source>⚠ calls/s disagrees with the mean latency: time went somewhere between calls</source>
        <translation>⚠ 每秒调用数与平均延迟不符：调用之间有时间损失</translation>
    </message>
    <message>
        <source>calls/s 95% interval</source>
        <translation>每秒调用数 95% 置信区间</translation>
    </message>
    <message>
        <source>The profile result cannot be shown: %1</source>
        <translation>无法显示性能分析结果：%1</translation>
    </message>
    <message>
        <source>worker isolation</source>
        <translation>工作进程隔离</translation>
    </message>
    <message>
        <source>request isolation</source>
        <translation>请求隔离</translation>
    </message>
    <message>
        <source>spawn baseline</source>
        <translation>新进程基线</translation>
    </message>
    <message>
        <source>warm workers that keep the package loaded</source>
        <translation>常驻工作进程，包保持已加载</translation>
    </message>
    <message>
        <source>a worker forked per request from the prepared server</source>
        <translation>每个请求从已就绪的服务进程 fork 一个工作进程</translation>
    </message>
    <message>
        <source>a fresh aotstudio-run process per request</source>
        <translation>每个请求启动一个新的 aotstudio-run 进程</translation>
    </message>
    <message>
        <source>Burst replay</source>
        <translation>突发回放</translation>
    </message>
    <message>
        <source>Burst replay not measured: not asked for (Run Settings → Burst replay rates is empty).</source>
        <translation>未测量突发回放：未请求（运行设置 → 突发回放速率为空）。</translation>
    </message>
    <message>
        <source>Burst replay not measured: aotstudio-run answered no rate.</source>
        <translation>未测量突发回放：aotstudio-run 没有返回任何速率的结果。</translation>
    </message>
    <message>
        <source>At %1 requests/s: %2</source>
        <translation>%1 请求/秒时：%2</translation>
    </message>
    <message>
        <source>%1 p99</source>
        <translation>%1 p99</translation>
    </message>
    <message>
        <source>saturated</source>
        <translation>已饱和</translation>
    </message>
    <message>
        <source>Burst replay not measured: no request was answered (see the profile&apos;s warnings).</source>
        <translation>未测量突发回放：没有请求得到应答（见分析结果的警告）。</translation>
    </message>
    <message>
        <source>Offered arrival rate (requests/s, Poisson)</source>
        <translation>到达速率（请求/秒，泊松）</translation>
    </message>
    <message>
        <source>Latency, arrival to answer (ms, log): p50, whisker to p99</source>
        <translation>延迟，从到达到应答（毫秒，对数）：p50，须线至 p99</translation>
    </message>
    <message>
        <source>Latency, arrival to answer (ms): p50, whisker to p99</source>
        <translation>延迟，从到达到应答（毫秒）：p50，须线至 p99</translation>
    </message>
    <message numerus="yes">
        <source>Burst replay: %1 s of arrivals per rate, %n worker(s); hollow: saturated</source>
        <translation>
            <numerusform>突发回放：每个速率 %1 秒的到达，%n 个工作进程；空心：已饱和</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (no interval)</source>
        <translation>%1（无置信区间）</translation>
    </message>
    <message>
        <source>%1 (95% CI %2–%3)</source>
        <translation>%1（95% 置信区间 %2–%3）</translation>
    </message>
    <message>
        <source>%1 (%2) at %3 requests/s (the trace offered %4/s)
p50 %5
p99 %6
throughput %7 answers/s; CPU busy %8
%9 of %10 answered</source>
        <translation>%1（%2），%3 请求/秒（轨迹实际到达 %4/秒）
p50 %5
p99 %6
吞吐量 %7 应答/秒；CPU 繁忙 %8
%10 个请求中 %9 个得到应答</translation>
    </message>
    <message>
        <source>saturated: answered %1/s of the %2/s offered (below %3 of it); its queue grew for the whole run, so its latency measures the trace&apos;s length</source>
        <translation>已饱和：到达 %2/秒，仅应答 %1/秒（低于其 %3）；队列在整个运行期间持续增长，因此其延迟反映的是轨迹长度</translation>
    </message>
    <message>
        <source>first error: %1</source>
        <translation>首个错误：%1</translation>
    </message>
    <message>
        <source>Python eager server</source>
        <translation>Python eager 服务进程</translation>
    </message>
    <message>
        <source>resident Python processes running the eager model</source>
        <translation>常驻的 Python 进程，以 eager 模式运行模型</translation>
    </message>
    <message>
        <source>%1 / this mode, median latency: %2</source>
        <translation>%1 / 此模式，延迟中位数：%2</translation>
    </message>
    <message>
        <source>%1 / this mode: not comparable (%2)</source>
        <translation>%1 / 此模式：不可比较（%2）</translation>
    </message>
    <message>
        <source>GPU busy %1 (NVML)</source>
        <translation>GPU 忙碌 %1（NVML）</translation>
    </message>
    <message>
        <source>GPU busy not measured: %1</source>
        <translation>未测得 GPU 忙碌比例：%1</translation>
    </message>
    <message>
        <source>ms per call
bar median, whiskers p10–p90, ◆ p99</source>
        <translation>每次调用的 ms
柱为中位数，须线为 p10–p90，◆ 为 p99</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::QuantizationPanel</name>
    <message>
        <source>unsupported</source>
        <translation>不支持</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Latency against accuracy</source>
        <translation>延迟与精度</translation>
    </message>
    <message>
        <source>Median latency per scheme</source>
        <translation>各方案的延迟中位数</translation>
    </message>
    <message>
        <source>Peak memory per scheme</source>
        <translation>各方案的峰值内存</translation>
    </message>
    <message>
        <source>Package size per scheme</source>
        <translation>各方案的包大小</translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <source>1 − cosine</source>
        <translation>1 − 余弦相似度</translation>
    </message>
    <message>
        <source>Accuracy against fp32 eager on the evaluation set</source>
        <translation>在评估集上相对于 fp32 即时执行的精度</translation>
    </message>
    <message>
        <source>Accuracy:</source>
        <translation>精度：</translation>
    </message>
    <message>
        <source>Latency vs accuracy</source>
        <translation>延迟与精度</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Package size</source>
        <translation>包大小</translation>
    </message>
    <message>
        <source>%1 — %2
eager %3, compiled %4
peak memory: eager %5, compiled %6
package %7</source>
        <translation>%1 — %2
即时执行 %3，编译后 %4
峰值内存：即时执行 %5，编译后 %6
包 %7</translation>
    </message>
    <message>
        <source>No quantization result yet: run Quantize to compare schemes.</source>
        <translation>尚无量化结果：请运行“量化”以比较各方案。</translation>
    </message>
    <message>
        <source>Per-layer error</source>
        <translation>逐层误差</translation>
    </message>
    <message>
        <source>Not measured: no quantization result.</source>
        <translation>未测量：没有量化结果。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2 · baseline %3 · calibration %4 samples, evaluation %5 samples</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;，设备 %2 · 基线 %3 · 校准 %4 个样本，评估 %5 个样本</translation>
    </message>
    <message>
        <source>No scheme within max abs error %1.</source>
        <translation>没有方案的最大绝对误差在 %1 以内。</translation>
    </message>
    <message>
        <source>★ Best within max abs error %1: &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>★ 最大绝对误差 %1 以内的最佳方案：&lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Per-layer error of %1: not measured (%2)</source>
        <translation>%1 的逐层误差：未测量（%2）</translation>
    </message>
    <message>
        <source>Per-layer error of %1: no quantized layers</source>
        <translation>%1 的逐层误差：没有量化层</translation>
    </message>
    <message numerus="yes">
        <source>Per-layer error of %1 (%n layer(s), each against its fp32 layer on the same input)</source>
        <translation>
            <numerusform>%1 的逐层误差（%n 个层，每层与同一输入下对应的 fp32 层比较）</numerusform>
        </translation>
    </message>
    <message>
        <source>★ %1</source>
        <translation>★ %1</translation>
    </message>
    <message>
        <source>Not measured: the result lists no schemes.</source>
        <translation>未测量：结果中没有列出方案。</translation>
    </message>
    <message>
        <source>Not measured: no scheme ran (see the table for the reasons).</source>
        <translation>未测量：没有方案运行（原因见表格）。</translation>
    </message>
    <message>
        <source>Eager</source>
        <translation>即时执行</translation>
    </message>
    <message>
        <source>Compiled</source>
        <translation>编译后</translation>
    </message>
    <message>
        <source>Median latency per call (ms)</source>
        <translation>每次调用的延迟中位数（毫秒）</translation>
    </message>
    <message>
        <source>Peak memory of one forward above resident (%1)</source>
        <translation>单次前向传播超出常驻内存的峰值内存（%1）</translation>
    </message>
    <message>
        <source>Not measured: every peak memory figure is 0 bytes, below what the method (%1) resolves.</source>
        <translation>未测量：所有峰值内存数据均为 0 字节，低于该方法（%1）的分辨能力。</translation>
    </message>
    <message>
        <source>Not measured: the result has no peak memory figures.</source>
        <translation>未测量：结果中没有峰值内存数据。</translation>
    </message>
    <message>
        <source>Package</source>
        <translation>包</translation>
    </message>
    <message>
        <source>Package size on disk (%1)</source>
        <translation>包在磁盘上的大小（%1）</translation>
    </message>
    <message>
        <source>Not measured: the result has no package sizes.</source>
        <translation>未测量：结果中没有包大小。</translation>
    </message>
    <message>
        <source>Not measured: no scheme has both a compiled latency and an accuracy figure.</source>
        <translation>未测量：没有方案同时具有编译后延迟和精度数据。</translation>
    </message>
    <message>
        <source>1 − cosine against fp32 eager (log)</source>
        <translation>相对 fp32 即时执行的 1 − 余弦相似度（对数）</translation>
    </message>
    <message>
        <source>Max abs error against fp32 eager (log)</source>
        <translation>相对 fp32 即时执行的最大绝对误差（对数）</translation>
    </message>
    <message>
        <source>Compiled median latency (ms)</source>
        <translation>编译后延迟中位数（毫秒）</translation>
    </message>
    <message>
        <source>Compiled median latency (ms, log)</source>
        <translation>编译后延迟中位数（ms，对数）</translation>
    </message>
    <message>
        <source> (error 0)</source>
        <translation>（误差 0）</translation>
    </message>
    <message>
        <source>max error %1</source>
        <translation>最大误差 %1</translation>
    </message>
    <message>
        <source>%1
compiled median %2
max abs error %3
cosine %4
%5 vs fp32 eager
measurement %6</source>
        <translation>%1
编译后中位数 %2
最大绝对误差 %3
余弦相似度 %4
相对 fp32 eager %5
测量 %6</translation>
    </message>
    <message>
        <source>Threads: %1 · Measurements: %2</source>
        <translation>线程：%1 · 测量：%2</translation>
    </message>
    <message numerus="yes">
        <source>%1 in %n row(s)</source>
        <translation>
            <numerusform>%1：%n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>%1
(unreliable)</source>
        <translation>%1
（不可靠）</translation>
    </message>
    <message>
        <source>Median latency per call (ms); grey: unreliable measurement</source>
        <translation>每次调用的延迟中位数（毫秒）；灰色：测量不可靠</translation>
    </message>
    <message>
        <source> (unreliable)</source>
        <translation>（不可靠）</translation>
    </message>
    <message>
        <source>The quantization result cannot be shown: %1</source>
        <translation>无法显示量化结果：%1</translation>
    </message>
    <message>
        <source>The schemes ran on several hosts of the Ray cluster %1: compare them by “vs fp32 eager”, a ratio each row took on its own host; their medians are not comparable.</source>
        <translation>各方案在 Ray 集群 %1 的多台主机上运行：请按“vs fp32 eager”比较，这是每行在自己主机上测得的比值；它们的中位数不可相互比较。</translation>
    </message>
    <message>
        <source>Speedup over fp32 eager, each on its own host (×)</source>
        <translation>相对 fp32 eager 的加速比，各在自己的主机上 (×)</translation>
    </message>
    <message>
        <source>Speedup over fp32 eager, each on its own host (×, log)</source>
        <translation>相对 fp32 eager 的加速比，各在自己的主机上 (×，对数)</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::RecipeText</name>
    <message>
        <source>chosen by the rule</source>
        <translation>由规则选定</translation>
    </message>
    <message>
        <source>chosen by a timed probe</source>
        <translation>由计时探测选定</translation>
    </message>
    <message>
        <source>as requested</source>
        <translation>按请求指定</translation>
    </message>
    <message>
        <source>%1, %2: %3</source>
        <translation>%1，%2：%3</translation>
    </message>
    <message>
        <source>Cost: %1</source>
        <translation>代价：%1</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ReportWriter</name>
    <message>
        <source>%1 already exists; choose a new folder name for the report.</source>
        <translation>%1 已存在；请为报告选择一个新的文件夹名称。</translation>
    </message>
    <message>
        <source>Cannot create %1: check that the folder is writable.</source>
        <translation>无法创建 %1：请检查该文件夹是否可写。</translation>
    </message>
    <message>
        <source>Written by AOT Studio %1 on %2.</source>
        <translation>由 AOT Studio %1 于 %2 生成。</translation>
    </message>
    <message>
        <source>Cannot write the chart %1 into %2.</source>
        <translation>无法将图表 %1 写入 %2。</translation>
    </message>
    <message>
        <source>Cannot write %1 into %2.</source>
        <translation>无法将 %1 写入 %2。</translation>
    </message>
    <message>
        <source>Cannot write index.html into %1.</source>
        <translation>无法将 index.html 写入 %1。</translation>
    </message>
    <message>
        <source>Cannot move the report into place at %1.</source>
        <translation>无法将报告移动到目标位置 %1。</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ResultPanel</name>
    <message>
        <source>No result yet.

Pick a model and a device in the toolbar, then press Compile (Ctrl+R).
The package path, accuracy and latency of the compiled model will appear here.</source>
        <translation>尚无结果。

请在工具栏中选择模型和设备，然后点击“编译”（Ctrl+R）。
编译后模型的包路径、精度和延迟将显示在这里。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the result as text</source>
        <translation>以文本形式复制结果</translation>
    </message>
    <message>
        <source>Package:</source>
        <translation>编译包：</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>Torch version:</source>
        <translation>Torch 版本：</translation>
    </message>
    <message>
        <source>Max abs error:</source>
        <translation>最大绝对误差：</translation>
    </message>
    <message>
        <source>Eager median:</source>
        <translation>Eager 中位数：</translation>
    </message>
    <message>
        <source>Compiled median:</source>
        <translation>编译后中位数：</translation>
    </message>
    <message>
        <source>Speedup:</source>
        <translation>加速比：</translation>
    </message>
    <message>
        <source>Timed runs:</source>
        <translation>计时运行次数：</translation>
    </message>
    <message>
        <source>Compiled %1</source>
        <translation>已编译 %1</translation>
    </message>
    <message>
        <source>%1 (tolerance %2)</source>
        <translation>%1（容差 %2）</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 ms (p10 %2, p90 %3)</source>
        <translation>%1 毫秒（p10 %2，p90 %3）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 was cancelled.&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1 已取消。&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Compiling %1 failed&lt;/b&gt;</source>
        <translation>&lt;b&gt;编译 %1 失败&lt;/b&gt;</translation>
    </message>
    <message>
        <source>in stage &lt;i&gt;%1&lt;/i&gt; (%2).</source>
        <translation>，失败阶段 &lt;i&gt;%1&lt;/i&gt;（%2）。</translation>
    </message>
    <message>
        <source>Hint: %1</source>
        <translation>提示：%1</translation>
    </message>
    <message>
        <source>eager %1, compiled %2</source>
        <translation>eager %1 次，编译后 %2 次</translation>
    </message>
    <message>
        <source>&lt;b&gt;Warning:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;警告：&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>Bundle exported</source>
        <translation>已导出部署包</translation>
    </message>
    <message>
        <source>Bundle:</source>
        <translation>部署包：</translation>
    </message>
    <message>
        <source>Zip:</source>
        <translation>Zip：</translation>
    </message>
    <message>
        <source>Buckets:</source>
        <translation>档位：</translation>
    </message>
    <message>
        <source>Cold start:</source>
        <translation>冷启动：</translation>
    </message>
    <message>
        <source>Manifest: %1</source>
        <translation>清单：%1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>dynamic %1–%2</source>
        <translation>动态 %1–%2</translation>
    </message>
    <message>
        <source>batch %1</source>
        <translation>批大小 %1</translation>
    </message>
    <message>
        <source>bundle %1 ms vs eager %2 ms</source>
        <translation>部署包 %1 毫秒，eager %2 毫秒</translation>
    </message>
    <message>
        <source>Wall time of a fresh process from spawn to its first output, median of %1 runs each: the bundle with aotstudio-run, the model in eager PyTorch.</source>
        <translation>全新进程从启动到首个输出的墙钟时间，各取 %1 次运行的中位数：部署包使用 aotstudio-run，模型使用 eager PyTorch。</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <source>Writing the bundle</source>
        <translation>写入部署包</translation>
    </message>
    <message>
        <source>&lt;b&gt;Exporting %1 was cancelled.&lt;/b&gt;</source>
        <translation>&lt;b&gt;导出 %1 已取消。&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Exporting %1 failed&lt;/b&gt;</source>
        <translation>&lt;b&gt;导出 %1 失败&lt;/b&gt;</translation>
    </message>
    <message>
        <source>spawn to main</source>
        <translation>启动到 main</translation>
    </message>
    <message>
        <source>verify</source>
        <translation>校验</translation>
    </message>
    <message>
        <source>load</source>
        <translation>加载</translation>
    </message>
    <message>
        <source>first run</source>
        <translation>首次运行</translation>
    </message>
    <message>
        <source>Measurement:</source>
        <translation>测量：</translation>
    </message>
    <message>
        <source>Threads:</source>
        <translation>线程：</translation>
    </message>
    <message>
        <source>Intra-op threads of eager and compiled alike</source>
        <translation>eager 与编译后模型使用相同的算子内线程数</translation>
    </message>
    <message>
        <source>Measured by:</source>
        <translation>测量来源：</translation>
    </message>
    <message>
        <source>Bundle phases:</source>
        <translation>部署包各阶段：</translation>
    </message>
    <message numerus="yes">
        <source>Ratio of the eager median to the compiled median; %1 over %n paired block(s), %2 resamples</source>
        <translation>
            <numerusform>eager 中位数与编译后中位数之比；%1，基于 %n 个配对分块，%2 次重采样</numerusform>
        </translation>
    </message>
    <message>
        <source>interval</source>
        <translation>置信区间</translation>
    </message>
    <message>
        <source>This result predates paired timing: it has no interval.</source>
        <translation>该结果早于配对计时：没有置信区间。</translation>
    </message>
    <message>
        <source>Profile at %1 (it supersedes the compile&apos;s quick measurement)</source>
        <translation>%1 的性能分析（取代编译时的快速测量）</translation>
    </message>
    <message>
        <source>Profile (it supersedes the compile&apos;s quick measurement)</source>
        <translation>性能分析（取代编译时的快速测量）</translation>
    </message>
    <message>
        <source>Compile (its quick measurement)</source>
        <translation>编译（其快速测量）</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>not measured (an older result)</source>
        <translation>未测量（旧版结果）</translation>
    </message>
    <message>
        <source>eager / bundle %1</source>
        <translation>eager / 部署包 %1</translation>
    </message>
    <message>
        <source>Verification:</source>
        <translation>验证：</translation>
    </message>
    <message>
        <source>Verified as:</source>
        <translation>验证方式：</translation>
    </message>
    <message>
        <source>Verified on:</source>
        <translation>验证输入：</translation>
    </message>
    <message>
        <source>Stateful:</source>
        <translation>有状态：</translation>
    </message>
    <message>
        <source>Whether forward() changes a buffer of the model (e.g. a running statistic): then eager and the package are checked to advance alike</source>
        <translation>forward() 是否会修改模型的缓冲区（例如滑动统计量）：如果会，则检查 eager 与编译包是否以相同方式推进</translation>
    </message>
    <message>
        <source>Inputs:</source>
        <translation>输入：</translation>
    </message>
    <message>
        <source>The package&apos;s inputs in its order: names from forward&apos;s parameters and their place in nested arguments (--dynamic takes these names)</source>
        <translation>包的输入（按其顺序）：名称来自 forward 的参数及其在嵌套参数中的位置（--dynamic 接受这些名称）</translation>
    </message>
    <message>
        <source>Regional compile</source>
        <translation>分区域编译</translation>
    </message>
    <message>
        <source>Blocks:</source>
        <translation>重复块：</translation>
    </message>
    <message>
        <source>Compile time:</source>
        <translation>编译时间：</translation>
    </message>
    <message>
        <source>Export and compile, in seconds; one compile each, so no interval</source>
        <translation>导出加编译，单位为秒；各只编译一次，因此没有置信区间</translation>
    </message>
    <message>
        <source>Latency (median):</source>
        <translation>延迟（中位数）：</translation>
    </message>
    <message>
        <source>Regional vs eager:</source>
        <translation>分区域 vs eager：</translation>
    </message>
    <message>
        <source>Eager median over the regional model&apos;s median, paired</source>
        <translation>eager 中位数与分区域编译模型中位数之比，配对测量</translation>
    </message>
    <message>
        <source>Regional vs whole:</source>
        <translation>分区域 vs 整体：</translation>
    </message>
    <message>
        <source>The whole package&apos;s median over the regional model&apos;s, paired: above 1 the regional model is faster</source>
        <translation>整体编译包的中位数与分区域编译模型中位数之比，配对测量：大于 1 表示分区域编译的模型更快</translation>
    </message>
    <message>
        <source>Package size:</source>
        <translation>编译包大小：</translation>
    </message>
    <message>
        <source>Block class</source>
        <translation>块类</translation>
    </message>
    <message>
        <source>Instances</source>
        <translation>实例数</translation>
    </message>
    <message>
        <source>Parameters each</source>
        <translation>每个实例的参数量</translation>
    </message>
    <message>
        <source>Compile time (s)</source>
        <translation>编译时间（秒）</translation>
    </message>
    <message>
        <source>Package size</source>
        <translation>包大小</translation>
    </message>
    <message>
        <source>Export and compile of the block&apos;s first instance</source>
        <translation>该块第一个实例的导出与编译</translation>
    </message>
    <message>
        <source>The block&apos;s package, without weights</source>
        <translation>该块的编译包，不含权重</translation>
    </message>
    <message>
        <source>Compiled %1 regionally</source>
        <translation>已分区域编译 %1</translation>
    </message>
    <message>
        <source>none of the whole model: one per block class</source>
        <translation>无整个模型的编译包：每个块类一个</translation>
    </message>
    <message>
        <source>none of the whole model: one per block class in %1</source>
        <translation>无整个模型的编译包：每个块类一个，位于 %1</translation>
    </message>
    <message>
        <source>cannot be shown: %1</source>
        <translation>无法显示：%1</translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <translation>%2 中的 %1</translation>
    </message>
    <message>
        <source>export %1 s, compile %2 s</source>
        <translation>导出 %1 秒，编译 %2 秒</translation>
    </message>
    <message numerus="yes">
        <source>%n block class(es)</source>
        <translation>
            <numerusform>%n 个块类</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n instance(s)</source>
        <translation>
            <numerusform>%n 个实例</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>%1, %2, holding %3% of the parameters</source>
        <translation>%1，%2，占参数量的 %3%</translation>
    </message>
    <message>
        <source>Block packages in %1</source>
        <translation>块的编译包位于 %1</translation>
    </message>
    <message>
        <source>regional %1 s</source>
        <translation>分区域 %1 秒</translation>
    </message>
    <message>
        <source>regional %1 s, whole %2 s</source>
        <translation>分区域 %1 秒，整体 %2 秒</translation>
    </message>
    <message>
        <source>regional / whole %1× (one compile each: no interval)</source>
        <translation>分区域 / 整体 %1×（各只编译一次：无置信区间）</translation>
    </message>
    <message>
        <source>eager %1, regional %2, whole %3</source>
        <translation>eager %1，分区域 %2，整体 %3</translation>
    </message>
    <message>
        <source>eager %1, regional %2</source>
        <translation>eager %1，分区域 %2</translation>
    </message>
    <message>
        <source>blocks %1 (no weights), whole %2 (with weights)</source>
        <translation>各块 %1（不含权重），整体 %2（含权重）</translation>
    </message>
    <message>
        <source>blocks %1 (no weights)</source>
        <translation>各块 %1（不含权重）</translation>
    </message>
    <message>
        <source>Regional median:</source>
        <translation>区域编译中位数：</translation>
    </message>
    <message>
        <source>GPU architectures</source>
        <translation>GPU 架构</translation>
    </message>
    <message>
        <source>torch version</source>
        <translation>torch 版本</translation>
    </message>
    <message>
        <source>kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>cold start</source>
        <translation>冷启动</translation>
    </message>
    <message>
        <source>requests per worker</source>
        <translation>每个工作进程的请求数</translation>
    </message>
    <message>
        <source>torch %1</source>
        <translation>torch %1</translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <source>CUDA %1</source>
        <translation>CUDA %1</translation>
    </message>
    <message>
        <source>no SASS</source>
        <translation>无 SASS</translation>
    </message>
    <message>
        <source>no PTX</source>
        <translation>无 PTX</translation>
    </message>
    <message>
        <source>PTX %1</source>
        <translation>PTX %1</translation>
    </message>
    <message>
        <source>CPU %1</source>
        <translation>CPU %1</translation>
    </message>
    <message>
        <source>dynamic shapes</source>
        <translation>动态形状</translation>
    </message>
    <message>
        <source>static shapes</source>
        <translation>静态形状</translation>
    </message>
    <message>
        <source>runtime %1</source>
        <translation>运行时 %1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>Built for:</source>
        <translation>构建目标：</translation>
    </message>
    <message>
        <source>Preflight:</source>
        <translation>预检：</translation>
    </message>
    <message>
        <source>Compatibility key: %1
Every runtime checks it before loading the bundle and refuses another torch, machine, CPU or GPU architecture.</source>
        <translation>兼容性键：%1
每个运行时在加载部署包前都会检查它，并拒绝不同的 torch、机器、CPU 或 GPU 架构。</translation>
    </message>
    <message>
        <source>not recorded (an older engine)</source>
        <translation>未记录（旧版引擎）</translation>
    </message>
    <message>
        <source>runs there</source>
        <translation>可以在该处运行</translation>
    </message>
    <message>
        <source>does not run there</source>
        <translation>无法在该处运行</translation>
    </message>
    <message>
        <source>not fully known</source>
        <translation>无法完全确定</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2</translation>
    </message>
    <message>
        <source>aotstudio-cli preflight BUNDLE --gpu PROFILE checks other GPUs.</source>
        <translation>aotstudio-cli preflight BUNDLE --gpu PROFILE 可检查其他 GPU。</translation>
    </message>
    <message>
        <source>not made (an older engine)</source>
        <translation>未进行（旧版引擎）</translation>
    </message>
    <message>
        <source>checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>cannot be made: %1</source>
        <translation>无法进行：%1</translation>
    </message>
    <message>
        <source>GPU worker:</source>
        <translation>GPU 工作节点：</translation>
    </message>
    <message>
        <source>Open Folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Show the bundle folder in the file manager</source>
        <translation>在文件管理器中显示部署包文件夹</translation>
    </message>
    <message>
        <source>Check the bundle against another GPU worker</source>
        <translation>针对另一种 GPU 工作节点检查部署包</translation>
    </message>
    <message>
        <source>The bundle is on the engine&apos;s machine: aotstudio-cli preflight BUNDLE --gpu PROFILE checks it there</source>
        <translation>部署包位于引擎所在机器上：在那里用 aotstudio-cli preflight BUNDLE --gpu PROFILE 检查它</translation>
    </message>
    <message>
        <source>Bundle %1</source>
        <translation>部署包 %1</translation>
    </message>
    <message>
        <source>In your code (innermost last):</source>
        <translation>在你的代码中（最内层在最后）：</translation>
    </message>
    <message>
        <source>%1:%2, in %3</source>
        <extracomment>a traceback frame: %1 file name, %2 line, %3 function</extracomment>
        <translation>%1:%2，在 %3 中</translation>
    </message>
    <message>
        <source>%1, line %2:</source>
        <translation>%1，第 %2 行：</translation>
    </message>
    <message>
        <source>Recipe:</source>
        <translation>配方：</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::RunSettingsDialog</name>
    <message>
        <source>Freezing (fold weights into constants)</source>
        <translation>冻结（将权重折叠为常量）</translation>
    </message>
    <message>
        <source>Max-autotune (benchmark kernel choices; slow compile)</source>
        <translation>max-autotune（对候选内核进行基准测试；编译较慢）</translation>
    </message>
    <message>
        <source>Run Settings</source>
        <translation>运行设置</translation>
    </message>
    <message>
        <source>float32</source>
        <translation>float32</translation>
    </message>
    <message>
        <source>bfloat16</source>
        <translation>bfloat16</translation>
    </message>
    <message>
        <source>float16</source>
        <translation>float16</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Needs a CUDA GPU of compute capability 8.9 or newer</source>
        <translation>需要计算能力 8.9 或更高的 CUDA GPU</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Runner counts for the throughput test, comma-separated; empty skips it</source>
        <translation>吞吐量测试的运行器数量，以逗号分隔；留空则跳过</translation>
    </message>
    <message>
        <source>skip</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>Compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>Data type:</source>
        <translation>数据类型：</translation>
    </message>
    <message>
        <source>Dynamic dimensions:</source>
        <translation>动态维度：</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>测量</translation>
    </message>
    <message>
        <source>Warm-up runs:</source>
        <translation>预热运行次数：</translation>
    </message>
    <message>
        <source>Most timed runs:</source>
        <translation>最多计时运行次数：</translation>
    </message>
    <message>
        <source>Time cap per variant:</source>
        <translation>每个变体的时间上限：</translation>
    </message>
    <message>
        <source>Throughput runners:</source>
        <translation>吞吐量运行器：</translation>
    </message>
    <message>
        <source>Cold-start runs:</source>
        <translation>冷启动运行次数：</translation>
    </message>
    <message>
        <source>Quantize</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Schemes:</source>
        <translation>方案：</translation>
    </message>
    <message>
        <source>Calibration samples:</source>
        <translation>校准样本数：</translation>
    </message>
    <message>
        <source>Evaluation samples:</source>
        <translation>评估样本数：</translation>
    </message>
    <message>
        <source>Max error for “best”:</source>
        <translation>“最佳”的最大误差：</translation>
    </message>
    <message>
        <source>e.g. 0:0:1:64 (input 0, dimension 0, from 1 to 64)</source>
        <translation>例如 0:0:1:64（输入 0，维度 0，从 1 到 64）</translation>
    </message>
    <message>
        <source>all usable CPUs</source>
        <translation>全部可用 CPU</translation>
    </message>
    <message>
        <source>Intra-op threads for eager and compiled alike; the engine refuses more than the CPUs it may use (affinity and cgroup quota) and records the count in every result</source>
        <translation>eager 与编译后模型共用的算子内线程数；引擎拒绝超过其可用 CPU（亲和性与 cgroup 配额）的值，并在每个结果中记录该数值</translation>
    </message>
    <message>
        <source>Threads:</source>
        <translation>线程：</translation>
    </message>
    <message>
        <source>e.g. {&quot;epilogue_fusion&quot;: false}</source>
        <translation>例如 {&quot;epilogue_fusion&quot;: false}</translation>
    </message>
    <message>
        <source>Further Inductor options of a compile as a JSON object (torch._inductor.config keys, dotted, to values); a tune&apos;s “Use this recipe” fills it</source>
        <translation>编译时额外的 Inductor 选项，写成 JSON 对象（torch._inductor.config 的键，用点号分隔，对应取值）；调优的“使用此配方”会填写它</translation>
    </message>
    <message>
        <source>Inductor options:</source>
        <translation>Inductor 选项：</translation>
    </message>
    <message>
        <source>Reset Shapes</source>
        <translation>重置形状</translation>
    </message>
    <message>
        <source>Use the model&apos;s own example shapes again</source>
        <translation>重新使用模型自带的示例形状</translation>
    </message>
    <message>
        <source>the model&apos;s own</source>
        <translation>模型自带的形状</translation>
    </message>
    <message>
        <source>Example input shapes of %1 (Model → Inputs… edits them)</source>
        <translation>%1 的示例输入形状（在“模型 → 输入…”中编辑）</translation>
    </message>
    <message>
        <source>Input shapes:</source>
        <translation>输入形状：</translation>
    </message>
    <message>
        <source>none: run everything in the engine</source>
        <translation>无：全部在引擎中运行</translation>
    </message>
    <message>
        <source>HOST:PORT of a Ray cluster&apos;s head (what “ray start --head” printed). Quantize schemes, export buckets, tune trials and sweep shards then run there as Ray tasks, each in an engine on a worker node with the same torch; results come back into the job folder. Rows measured on different hosts are never put into one ratio.</source>
        <translation>Ray 集群头节点的 HOST:PORT（“ray start --head”输出的地址）。量化方案、导出分桶、调优试验和扫描分片随后作为 Ray 任务在那里运行，每个任务在使用相同 torch 的工作节点引擎中执行；结果回到作业文件夹。不同主机上测得的行绝不放进同一个比值。</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Ray cluster:</source>
        <translation>Ray 集群：</translation>
    </message>
    <message>
        <source>“%1” is not HOST:PORT (e.g. 10.0.0.5:6379)</source>
        <translation>“%1”不是 HOST:PORT（例如 10.0.0.5:6379）</translation>
    </message>
    <message>
        <source>empty: skip (e.g. 5, 20, 50)</source>
        <translation>留空：跳过（例如 5, 20, 50）</translation>
    </message>
    <message>
        <source>Arrival rates for the burst replay after cold start, comma-separated: at each rate aotstudio-run serves a Poisson trace with warm workers, with a fresh worker per request and with a fresh process per request; empty skips it</source>
        <translation>冷启动之后突发回放的到达速率，以逗号分隔：在每个速率下，aotstudio-run 分别以常驻工作进程、每个请求一个新工作进程、每个请求一个新进程来服务一条泊松轨迹；留空则跳过</translation>
    </message>
    <message>
        <source>Seconds of arrivals per rate; every request is answered, so a saturated mode takes longer</source>
        <translation>每个速率的到达时长（秒）；每个请求都会得到应答，因此饱和的模式耗时更长</translation>
    </message>
    <message>
        <source>Burst replay rates (requests/s):</source>
        <translation>突发回放速率（请求/秒）：</translation>
    </message>
    <message>
        <source>Seconds per replay rate:</source>
        <translation>每个回放速率的秒数：</translation>
    </message>
    <message>
        <source>Pick a model first: dynamic dimensions are kept per model</source>
        <translation>请先选择模型：动态维度按模型分别保存</translation>
    </message>
    <message>
        <source>Dynamic dimensions of %1 for torch.export, comma-separated: INPUT:DIM or INPUT:DIM:MIN:MAX, each optionally =NAME; one name ties dimensions of several inputs (0:0=batch, 1:0=batch)</source>
        <translation>%1 的 torch.export 动态维度，以逗号分隔：INPUT:DIM 或 INPUT:DIM:MIN:MAX，均可附加 =NAME；同一名称将多个输入的维度绑定为一个维度（0:0=batch, 1:0=batch）</translation>
    </message>
    <message>
        <source>Regional compile (each repeated block compiled once, weights bound at run time)</source>
        <translation>分区域编译（每个重复块只编译一次，权重在运行时绑定）</translation>
    </message>
    <message>
        <source>Also compile the whole model to compare</source>
        <translation>同时编译整个模型以作比较</translation>
    </message>
    <message>
        <source>Compile finds the model&apos;s repeated blocks (e.g. transformer layers), compiles one package without weights per block class and runs every instance on it with its own weights: a shorter compile than the whole model&apos;s. Profile, Quantize, Export and Tune always compile the whole model.</source>
        <translation>编译时找出模型中的重复块（例如 Transformer 层），为每个块类编译一个不含权重的编译包，每个实例都用自己的权重在该包上运行：编译时间比整个模型短。性能分析、量化、导出和调优始终编译整个模型。</translation>
    </message>
    <message>
        <source>Compiles the whole model too and times it against the model with compiled blocks: compile time and latency of both</source>
        <translation>同时编译整个模型，并与使用已编译块的模型对比计时：比较两者的编译时间和延迟</translation>
    </message>
    <message>
        <source>Auto (chosen per model)</source>
        <translation>自动（按模型选择）</translation>
    </message>
    <message>
        <source>AOTInductor defaults</source>
        <translation>AOTInductor 默认设置</translation>
    </message>
    <message>
        <source>Freezing</source>
        <translation>冻结</translation>
    </message>
    <message>
        <source>Max-autotune</source>
        <translation>max-autotune</translation>
    </message>
    <message>
        <source>Auto picks the recipe from the exported graph (on the CPU: freezing when convolutions carry most of the work) and the result says which and why; the boxes below add to any recipe</source>
        <translation>“自动”根据导出的图选择配方（在 CPU 上：卷积承担大部分计算时启用冻结），结果会说明选了哪个及原因；下面的选项会叠加到任何配方上</translation>
    </message>
    <message>
        <source>Recipe:</source>
        <translation>配方：</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SchemeTableModel</name>
    <message>
        <source>%1 (stage %2)</source>
        <translation>%1（阶段 %2）</translation>
    </message>
    <message>
        <source>★ best</source>
        <translation>★ 最佳</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>unsupported</source>
        <translation>不支持</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2：%3</translation>
    </message>
    <message>
        <source>%1: the fastest scheme with a max abs error within %2</source>
        <translation>%1：最大绝对误差在 %2 以内的最快方案</translation>
    </message>
    <message>
        <source>Package %1, eager %2</source>
        <translation>包 %1，即时执行 %2</translation>
    </message>
    <message>
        <source>Embedding cosine %1</source>
        <translation>嵌入余弦相似度 %1</translation>
    </message>
    <message>
        <source>Quantized ops: %1</source>
        <translation>已量化的算子：%1</translation>
    </message>
    <message>
        <source>Peak memory of one forward of the package above what was resident before it</source>
        <translation>包单次前向传播超出其运行前常驻内存的峰值内存</translation>
    </message>
    <message>
        <source>The package&apos;s outputs against fp32 eager on the evaluation set</source>
        <translation>在评估集上包的输出与 fp32 即时执行的对比</translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Eager (ms)</source>
        <translation>即时执行（毫秒）</translation>
    </message>
    <message>
        <source>Compiled (ms)</source>
        <translation>编译后（毫秒）</translation>
    </message>
    <message>
        <source>vs fp32 eager</source>
        <translation>相对 fp32 即时执行</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>峰值内存</translation>
    </message>
    <message>
        <source>Package</source>
        <translation>包</translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>余弦相似度</translation>
    </message>
    <message>
        <source>Top-1</source>
        <translation>Top-1</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Threads: %1</source>
        <translation>线程：%1</translation>
    </message>
    <message>
        <source>Notes: %1</source>
        <translation>备注：%1</translation>
    </message>
    <message>
        <source>fp32 eager %1 ms over this scheme&apos;s compiled %2 ms
this scheme&apos;s own eager / compiled: %3</source>
        <translation>fp32 eager %1 毫秒 除以本方案编译后 %2 毫秒
本方案自身 eager / 编译后：%3</translation>
    </message>
    <message>
        <source>fp32 eager median over this scheme&apos;s compiled median, with its 95% confidence interval over the paired blocks</source>
        <translation>fp32 eager 中位数除以本方案编译后中位数，附配对分块上的 95% 置信区间</translation>
    </message>
    <message>
        <source>Whether the machine allowed a fair measurement of this row (ok, noisy, unreliable, unknown)</source>
        <translation>机器状态是否允许公平测量本行（正常、有噪声、不可靠、未知）</translation>
    </message>
    <message>
        <source>Measurement</source>
        <translation>测量</translation>
    </message>
    <message>
        <source>Each output against fp32 eager:</source>
        <translation>各输出相对 fp32 eager：</translation>
    </message>
    <message>
        <source>%1: max abs %2, cosine %3</source>
        <translation>%1：最大绝对误差 %2，余弦 %3</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1: the highest speedup over fp32 eager (each on its own host) with a max abs error within %2</source>
        <translation>%1：最大绝对误差在 %2 以内、相对 fp32 eager 加速比最高的方案（各在自己的主机上测量）</translation>
    </message>
    <message>
        <source>Ray node %1</source>
        <translation>Ray 节点 %1</translation>
    </message>
    <message>
        <source>The host and device this row was measured on; rows of different hosts are compared by their own speedup over fp32 eager, never by their medians</source>
        <translation>测量此行所用的主机和设备；不同主机的行按各自相对 fp32 eager 的加速比比较，绝不比较它们的中位数</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SelectionHub</name>
    <message>
        <source>No snapshot file for %1 (snapshots were off).</source>
        <translation>%1 没有快照文件（快照已关闭）。</translation>
    </message>
    <message>
        <source>Fetching %1 from the engine…</source>
        <translation>正在从引擎获取 %1…</translation>
    </message>
    <message>
        <source>The snapshot cannot be read: %1</source>
        <translation>无法读取快照：%1</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SessionController</name>
    <message>
        <source>AOT Studio</source>
        <translation>AOT Studio</translation>
    </message>
    <message>
        <source>This session is not being recorded: cannot write %1 (%2).</source>
        <translation>此会话未被记录：无法写入 %1（%2）。</translation>
    </message>
    <message>
        <source>Could not open the session: %1</source>
        <translation>无法打开会话：%1</translation>
    </message>
    <message>
        <source>Open Session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>AOT Studio — %1</source>
        <translation>AOT Studio — %1</translation>
    </message>
    <message numerus="yes">
        <source>Opened the session %1 (%n job(s)).</source>
        <translation>
            <numerusform>已打开会话 %1（%n 个任务）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Opened the session %1 with problems: see the log.</source>
        <translation>已打开会话 %1，但存在问题：请查看日志。</translation>
    </message>
    <message>
        <source>AOT Studio sessions (*.aotsession)</source>
        <translation>AOT Studio 会话 (*.aotsession)</translation>
    </message>
    <message>
        <source>Saving the session failed: %1</source>
        <translation>保存会话失败：%1</translation>
    </message>
    <message>
        <source>Saved the session to %1.</source>
        <translation>已将会话保存到 %1。</translation>
    </message>
    <message>
        <source>Saved the session to %1</source>
        <translation>已将会话保存到 %1</translation>
    </message>
    <message>
        <source>Save Session As (a new folder)</source>
        <translation>会话另存为（新文件夹）</translation>
    </message>
    <message>
        <source>Open Job Folder</source>
        <translation>打开作业文件夹</translation>
    </message>
    <message>
        <source>Opened the job folder %1.</source>
        <translation>已打开作业文件夹 %1。</translation>
    </message>
    <message>
        <source>Reading the bundle %1…</source>
        <translation>正在读取部署包 %1…</translation>
    </message>
    <message>
        <source>Opened the bundle %1.</source>
        <translation>已打开部署包 %1。</translation>
    </message>
    <message>
        <source>Open Job Folder (numerics.json, tune.json, or a bundle&apos;s manifest.json)</source>
        <translation>打开作业文件夹（numerics.json、tune.json，或部署包的 manifest.json）</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SessionReport</name>
    <message>
        <source>AOT Studio report</source>
        <translation>AOT Studio 报告</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>torch</source>
        <translation>torch</translation>
    </message>
    <message>
        <source>Measured by</source>
        <translation>测量来源</translation>
    </message>
    <message>
        <source>Profile at %1 (it supersedes the compile&apos;s quick measurement)</source>
        <translation>%1 的性能分析（取代编译时的快速测量）</translation>
    </message>
    <message>
        <source>Profile (it supersedes the compile&apos;s quick measurement)</source>
        <translation>性能分析（取代编译时的快速测量）</translation>
    </message>
    <message>
        <source>Compile (its quick measurement)</source>
        <translation>编译（其快速测量）</translation>
    </message>
    <message>
        <source>Eager median</source>
        <translation>即时执行中位数</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Compiled median</source>
        <translation>编译后中位数</translation>
    </message>
    <message>
        <source>Speed-up</source>
        <translation>加速比</translation>
    </message>
    <message>
        <source>Measurement</source>
        <translation>测量</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <source>Verification</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Verified as</source>
        <translation>验证方式</translation>
    </message>
    <message>
        <source>Verified on</source>
        <translation>验证输入</translation>
    </message>
    <message>
        <source>Stateful</source>
        <translation>有状态</translation>
    </message>
    <message>
        <source>Last compile</source>
        <translation>最近一次编译</translation>
    </message>
    <message>
        <source>%1 failed verification: %2</source>
        <translation>%1 验证失败：%2</translation>
    </message>
    <message>
        <source>Cold start</source>
        <translation>冷启动</translation>
    </message>
    <message>
        <source>bundle %1 ms vs eager %2 ms: eager / bundle %3</source>
        <translation>部署包 %1 毫秒，eager %2 毫秒：eager / 部署包 %3</translation>
    </message>
    <message>
        <source>spawn to main</source>
        <translation>启动到 main</translation>
    </message>
    <message>
        <source>verify</source>
        <translation>校验</translation>
    </message>
    <message>
        <source>load</source>
        <translation>加载</translation>
    </message>
    <message>
        <source>first run</source>
        <translation>首次运行</translation>
    </message>
    <message>
        <source>Cold start: %1</source>
        <translation>冷启动：%1</translation>
    </message>
    <message>
        <source>Verification per output</source>
        <translation>各输出的验证结果</translation>
    </message>
    <message>
        <source>Failed verification per output</source>
        <translation>验证失败时各输出的结果</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Quantization schemes</source>
        <translation>量化方案</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SweepPanel</name>
    <message>
        <source>&lt;span style=&apos;color:#2e7d32&apos;&gt;■&lt;/span&gt; matched eager &amp;nbsp; &lt;span style=&apos;color:#78909c&apos;&gt;■&lt;/span&gt; refused outside the range (hatched: outside) &amp;nbsp; &lt;span style=&apos;color:#f9a825&apos;&gt;■&lt;/span&gt; eager itself fails &amp;nbsp; &lt;span style=&apos;color:#c62828&apos;&gt;■&lt;/span&gt; not what the guards promise</source>
        <translation>&lt;span style=&apos;color:#2e7d32&apos;&gt;■&lt;/span&gt; 与 eager 一致 &amp;nbsp; &lt;span style=&apos;color:#78909c&apos;&gt;■&lt;/span&gt; 范围外被拒绝（斜线：范围外） &amp;nbsp; &lt;span style=&apos;color:#f9a825&apos;&gt;■&lt;/span&gt; eager 本身失败 &amp;nbsp; &lt;span style=&apos;color:#c62828&apos;&gt;■&lt;/span&gt; 不符合守卫的承诺</translation>
    </message>
    <message>
        <source>Package:</source>
        <translation>编译包：</translation>
    </message>
    <message>
        <source>No sweep yet.</source>
        <translation>尚未进行形状扫描。</translation>
    </message>
    <message>
        <source>Sweep of %1 on %2: %3</source>
        <translation>%1 在 %2 上的形状扫描：%3</translation>
    </message>
    <message>
        <source>bucket %1</source>
        <translation>档位 %1</translation>
    </message>
    <message>
        <source>no bucket</source>
        <translation>无档位</translation>
    </message>
    <message>
        <source>%1 padded to %2</source>
        <translation>%1，填充到 %2</translation>
    </message>
    <message>
        <source>batch %1</source>
        <translation>批大小 %1</translation>
    </message>
    <message>
        <source>Bucket policy:</source>
        <translation>档位选择策略：</translation>
    </message>
    <message>
        <source>Guards: %1 (from %2); %3 shapes: %4 varying one dimension, %5 pairwise, %6 left out</source>
        <translation>守卫：%1（来自 %2）；%3 个形状：%4 个改变单一维度，%5 个成对组合，%6 个未纳入</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SweepPointModel</name>
    <message>
        <source>matched eager</source>
        <translation>与 eager 一致</translation>
    </message>
    <message>
        <source>differs from eager</source>
        <translation>与 eager 不一致</translation>
    </message>
    <message>
        <source>eager itself fails (the model&apos;s own)</source>
        <translation>eager 本身失败（模型自身的问题）</translation>
    </message>
    <message>
        <source>refused inside the range</source>
        <translation>范围内却被拒绝</translation>
    </message>
    <message>
        <source>refused (outside the range)</source>
        <translation>已拒绝（超出范围）</translation>
    </message>
    <message>
        <source>ran although outside the range</source>
        <translation>超出范围却仍被运行</translation>
    </message>
    <message>
        <source>the package raised</source>
        <translation>编译包抛出错误</translation>
    </message>
    <message>
        <source>crashed</source>
        <translation>崩溃</translation>
    </message>
    <message>
        <source>hung (killed)</source>
        <translation>挂起（已终止）</translation>
    </message>
    <message>
        <source>inputs %1</source>
        <translation>输入 %1</translation>
    </message>
    <message>
        <source>chosen as: %1</source>
        <translation>选取原因：%1</translation>
    </message>
    <message>
        <source>the guards accept it: it must match eager</source>
        <translation>守卫接受该形状：必须与 eager 一致</translation>
    </message>
    <message>
        <source>the guards refuse it: %1</source>
        <translation>守卫拒绝该形状：%1</translation>
    </message>
    <message>
        <source>(max abs error %1)</source>
        <translation>（最大绝对误差 %1）</translation>
    </message>
    <message>
        <source>match</source>
        <translation>一致</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>未通过</translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>预期</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>是否通过</translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <source>Chosen as</source>
        <translation>选取原因</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::SweepView</name>
    <message>
        <source>static shapes (no dynamic dimension)</source>
        <translation>静态形状（无动态维度）</translation>
    </message>
    <message>
        <source>%1: range %2, example %3</source>
        <translation>%1：范围 %2，示例 %3</translation>
    </message>
    <message>
        <source>relations between dimensions, broken on purpose</source>
        <translation>维度之间的关系（有意破坏）</translation>
    </message>
    <message>
        <source>%1 × %2 together</source>
        <translation>%1 × %2 组合</translation>
    </message>
    <message>
        <source>No sweep yet: Engine → Sweep Shapes verifies the last compiled package across its shapes.</source>
        <translation>尚未进行形状扫描：引擎 → 形状扫描会在所有形状上验证最近一次编译的包。</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::TableCopy</name>
    <message>
        <source>Copy Rows</source>
        <translation>复制行</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::ThroughputModel</name>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>⚠ no</source>
        <translation>⚠ 否</translation>
    </message>
    <message>
        <source>Calls per second agree with this runner&apos;s own latency.</source>
        <translation>每秒调用数与该运行器自身的延迟一致。</translation>
    </message>
    <message>
        <source>Checked for one runner only (several runners share the CPUs).</source>
        <translation>仅对单个运行器检查（多个运行器共享 CPU）。</translation>
    </message>
    <message>
        <source>Torch intra-op threads of each runner</source>
        <translation>每个运行器的 Torch 算子内线程数</translation>
    </message>
    <message>
        <source>Whether calls per second agree with the runner&apos;s own latency (one runner only)</source>
        <translation>每秒调用数是否与运行器自身的延迟一致（仅单个运行器）</translation>
    </message>
    <message>
        <source>Runners</source>
        <translation>运行器数</translation>
    </message>
    <message>
        <source>Threads each</source>
        <translation>每个的线程数</translation>
    </message>
    <message>
        <source>Calls/s</source>
        <translation>次/秒</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>Consistent</source>
        <translation>一致</translation>
    </message>
    <message>
        <source>1× (baseline)</source>
        <translation>1×（基准）</translation>
    </message>
    <message>
        <source>Calls ending inside the counted windows per second, with the 95% interval of the per-window rate</source>
        <translation>每秒在计数窗口内结束的调用数，附每窗口速率的 95% 置信区间</translation>
    </message>
    <message>
        <source>Calls/s over one runner&apos;s, windows paired by round, with its 95% interval</source>
        <translation>相对单个运行器的每秒调用数之比（窗口按轮次配对），附 95% 置信区间</translation>
    </message>
    <message>
        <source>vs 1 runner</source>
        <translation>相对 1 个运行器</translation>
    </message>
    <message>
        <source>Calls per second do not agree with this runner&apos;s own latency: its calls run back to back, so the rate should be 1000 / mean latency (within 10%); time went somewhere between calls.</source>
        <translation>每秒调用数与该运行器自身的延迟不符：它的调用是连续执行的，速率应为 1000 / 平均延迟（误差 10% 以内）；调用之间有时间损失。</translation>
    </message>
    <message>
        <source>Expected %1 calls/s, measured %2.</source>
        <translation>预期 %1 次/秒，实测 %2。</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::TimelineChart</name>
    <message>
        <source>covers %1</source>
        <translation>覆盖 %1</translation>
    </message>
    <message>
        <source>process %1</source>
        <translation>进程 %1</translation>
    </message>
    <message>
        <source>thread %1</source>
        <translation>线程 %1</translation>
    </message>
    <message>
        <source>Kernel timeline per stream and thread</source>
        <translation>按流和线程划分的内核时间线</translation>
    </message>
    <message>
        <source>Zoom to the traced calls of one variant</source>
        <translation>缩放到某个变体的跟踪调用</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Drag to pan, wheel to zoom, click a range to select its kernel.</source>
        <translation>拖动以平移，滚动滚轮以缩放，单击区间以选择其内核。</translation>
    </message>
    <message>
        <source>Time from the start of the traced pass (ms)</source>
        <translation>从跟踪运行开始起的时间（毫秒）</translation>
    </message>
    <message>
        <source>All variants</source>
        <translation>所有变体</translation>
    </message>
    <message>
        <source>%1
%2 · %3
start %4 ms, duration %5 µs
%6</source>
        <translation>%1
%2 · %3
开始 %4 毫秒，时长 %5 µs
%6</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::TrustDialog</name>
    <message>
        <source>Load a bundle nobody you trust signed?</source>
        <translation>加载一个没有您信任的人签名的部署包？</translation>
    </message>
    <message>
        <source>The engine on %1 did not load the bundle %2:

%3</source>
        <translation>%1 上的引擎未加载部署包 %2：

%3</translation>
    </message>
    <message>
        <source>Loading a bundle runs the native code of its packages inside the engine, with your rights on %1. Load it only if you know who made it. To trust its signer for good, add their public key to the engine&apos;s trust store ($AOTSTUDIO_TRUST).</source>
        <translation>加载部署包会在引擎中以您在 %1 上的权限运行其编译包的原生代码。仅在您知道它由谁制作时才加载。若要长期信任其签名者，请将其公钥加入引擎的信任存储（$AOTSTUDIO_TRUST）。</translation>
    </message>
    <message>
        <source>Load Anyway</source>
        <translation>仍然加载</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::TunePanel</name>
    <message>
        <source>Latency against error: the Pareto front</source>
        <translation>延迟与误差：帕累托前沿</translation>
    </message>
    <message>
        <source>Use This Recipe</source>
        <translation>使用此配方</translation>
    </message>
    <message>
        <source>Save Recipe…</source>
        <translation>保存配方…</translation>
    </message>
    <message>
        <source>The next compile uses the selected trial&apos;s options: freezing, max-autotune, dtype and Inductor options (Run Settings)</source>
        <translation>下一次编译使用所选试验的选项：冻结、max-autotune、数据类型和 Inductor 选项（运行设置）</translation>
    </message>
    <message>
        <source>Write the selected trial&apos;s options as recipe.json, for aotstudio-cli compile --recipe</source>
        <translation>将所选试验的选项写入 recipe.json，供 aotstudio-cli compile --recipe 使用</translation>
    </message>
    <message>
        <source>%1: %2 ms, max abs error %3</source>
        <translation>%1：%2 毫秒，最大绝对误差 %3</translation>
    </message>
    <message numerus="yes">
        <source>%1 on %2, %3: %n trial(s)</source>
        <translation>
            <numerusform>%1，%2，%3：%n 次试验</numerusform>
        </translation>
    </message>
    <message>
        <source>no recipe qualified</source>
        <translation>没有符合条件的配方</translation>
    </message>
    <message>
        <source>recipe: %1</source>
        <translation>配方：%1</translation>
    </message>
    <message>
        <source>measurement: %1</source>
        <translation>测量：%1</translation>
    </message>
    <message>
        <source>Select a trial that compiled (not a baseline) first.</source>
        <translation>请先选择一个已编译成功的试验（不能是基线）。</translation>
    </message>
    <message>
        <source>Save Recipe</source>
        <translation>保存配方</translation>
    </message>
    <message>
        <source>Recipes (*.json)</source>
        <translation>配方 (*.json)</translation>
    </message>
    <message>
        <source>The recipe was not saved: %1</source>
        <translation>配方未保存：%1</translation>
    </message>
    <message>
        <source>Median latency (ms)</source>
        <translation>延迟中位数（毫秒）</translation>
    </message>
    <message>
        <source>Max abs error against eager (log)</source>
        <translation>相对 eager 的最大绝对误差（对数）</translation>
    </message>
    <message>
        <source>%1 (error 0)</source>
        <translation>%1（误差为 0）</translation>
    </message>
    <message>
        <source>No tune yet: Engine → Tune Compile Recipe… runs one; a folder of aotstudio-cli tune --out DIR opens with File → Open Job Folder….</source>
        <translation>尚无调优结果：“引擎 → 调优编译配方…”可运行一次；aotstudio-cli tune --out DIR 的文件夹可通过“文件 → 打开作业文件夹…”打开。</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::TuneTableModel</name>
    <message>
        <source>The defaults trial&apos;s median over this one&apos;s (&gt; 1: faster), with the 95% interval of the paired measurement</source>
        <translation>defaults 试验的中位数除以本试验的中位数（&gt; 1：更快），附配对测量的 95% 置信区间</translation>
    </message>
    <message>
        <source>%1 (baseline)</source>
        <translation>%1（基线）</translation>
    </message>
    <message>
        <source>%1 (recipe)</source>
        <translation>%1（配方）</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>1× (reference)</source>
        <translation>1×（参照）</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>%1× (%2–%3)</source>
        <translation>%1×（%2–%3）</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Median (ms)</source>
        <translation>中位数（毫秒）</translation>
    </message>
    <message>
        <source>vs defaults</source>
        <translation>相对 defaults</translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <source>Compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>Package</source>
        <translation>包</translation>
    </message>
    <message>
        <source>Pareto</source>
        <translation>帕累托</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::VerifyOutputModel</name>
    <message>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>the tolerance</source>
        <translation>容差</translation>
    </message>
    <message>
        <source>The compiled output is at most %1 further from the %2 reference than eager is.</source>
        <translation>编译后的输出与 %2 参考结果的偏差最多比 eager 大 %1。</translation>
    </message>
    <message>
        <source>The compiled output is more than %1 further from the %2 reference than eager is.</source>
        <translation>编译后的输出与 %2 参考结果的偏差比 eager 大超过 %1。</translation>
    </message>
    <message>
        <source>higher-precision</source>
        <translation>更高精度</translation>
    </message>
    <message>
        <source>Max abs error against eager within %1.</source>
        <translation>相对 eager 的最大绝对误差在 %1 以内。</translation>
    </message>
    <message>
        <source>Max abs error against eager above %1.</source>
        <translation>相对 eager 的最大绝对误差超过 %1。</translation>
    </message>
    <message>
        <source>Max abs error against the %1 reference (the same model and inputs in higher precision)</source>
        <translation>相对 %1 参考结果的最大绝对误差（同一模型和输入的更高精度版本）</translation>
    </message>
    <message>
        <source>max |compiled − eager| / max(|eager|, 1e-12)</source>
        <translation>max |编译后 − eager| / max(|eager|, 1e-12)</translation>
    </message>
    <message>
        <source>Cosine similarity of compiled and eager (the smallest over the calls)</source>
        <translation>编译后与 eager 输出的余弦相似度（各次调用中的最小值）</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Max abs error</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <source>Max rel error</source>
        <translation>最大相对误差</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>余弦相似度</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Max abs error of the package against the higher-precision reference</source>
        <translation>编译包相对更高精度参考结果的最大绝对误差</translation>
    </message>
    <message>
        <source>Max abs error of eager against the higher-precision reference</source>
        <translation>Eager 相对更高精度参考结果的最大绝对误差</translation>
    </message>
    <message>
        <source>Compiled vs ref.</source>
        <translation>编译后 vs 参考</translation>
    </message>
    <message>
        <source>Eager vs ref.</source>
        <translation>Eager vs 参考</translation>
    </message>
</context>
<context>
    <name>AotStudio::Widgets::VerifyText</name>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>see the error</source>
        <translation>见错误信息</translation>
    </message>
    <message numerus="yes">
        <source>passed (reduced precision): against the %1 reference the package is off by %2 and eager by %3 (tolerance %4 on the difference), %n output(s)</source>
        <translation>
            <numerusform>通过（低精度）：相对 %1 参考结果，编译包偏差 %2，eager 偏差 %3（差值容差 %4），共 %n 个输出</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>passed: %n output(s) within %1 of eager (largest %2)</source>
        <translation>
            <numerusform>通过：%n 个输出与 eager 的差异在 %1 以内（最大 %2）</numerusform>
        </translation>
    </message>
    <message>
        <source>reduced precision: compiled and eager against a %1 reference</source>
        <translation>低精度：编译后与 eager 均与 %1 参考结果比较</translation>
    </message>
    <message>
        <source>reduced precision without a reference: compiled against eager</source>
        <translation>低精度，无参考结果：编译后与 eager 比较</translation>
    </message>
    <message>
        <source>reduced precision without a reference (%1): compiled against eager</source>
        <translation>低精度，无参考结果（%1）：编译后与 eager 比较</translation>
    </message>
    <message>
        <source>compiled against eager</source>
        <translation>编译后与 eager 比较</translation>
    </message>
    <message numerus="yes">
        <source>the example input and %n seeded input(s)</source>
        <translation>
            <numerusform>示例输入和 %n 个随机种子输入</numerusform>
        </translation>
    </message>
    <message>
        <source>the example input only</source>
        <translation>仅示例输入</translation>
    </message>
    <message numerus="yes">
        <source>(%n call(s))</source>
        <translation>
            <numerusform>（%n 次调用）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n seeded input(s) skipped: eager itself raised on them</source>
        <translation>
            <numerusform>跳过 %n 个随机种子输入：eager 自身在其上抛出异常</numerusform>
        </translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>yes: forward() changes a buffer; both sides were checked to advance alike</source>
        <translation>是：forward() 会修改一个缓冲区；已检查两侧以相同方式推进</translation>
    </message>
    <message>
        <source>yes: forward() updates %1; both sides were checked to advance alike</source>
        <translation>是：forward() 会更新 %1；已检查两侧以相同方式推进</translation>
    </message>
    <message numerus="yes">
        <source>%n output(s) failed verification: %1</source>
        <translation>
            <numerusform>%n 个输出验证失败：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>compared: %n output(s) with the scheme&apos;s eager model, largest difference %1 (no tolerance)</source>
        <translation>
            <numerusform>已比较：%n 个输出与该方案的 eager 模型，最大差异 %1（无容差）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EngineMessage</name>
    <message>
        <source>model file &apos;{path}&apos; does not exist</source>
        <translation>模型文件 &apos;{path}&apos; 不存在</translation>
    </message>
    <message>
        <source>choose an existing model file with Model → Open factory…</source>
        <translation>用“模型 → 打开工厂函数…”选择一个存在的模型文件</translation>
    </message>
    <message>
        <source>give the path of a file written by torch.export.save</source>
        <translation>给出由 torch.export.save 写出的文件的路径</translation>
    </message>
    <message>
        <source>importing &apos;{path}&apos; raised {error} at {location}</source>
        <translation>导入 &apos;{path}&apos; 时在 {location} 抛出 {error}</translation>
    </message>
    <message>
        <source>fix the error in the model file</source>
        <translation>修正模型文件中的错误</translation>
    </message>
    <message>
        <source>&apos;{path}&apos; has no callable &apos;{name}&apos;</source>
        <translation>&apos;{path}&apos; 中没有可调用的 &apos;{name}&apos;</translation>
    </message>
    <message>
        <source>name a function that returns (model, example_inputs)</source>
        <translation>指定一个返回 (model, example_inputs) 的函数</translation>
    </message>
    <message>
        <source>factory &apos;{name}&apos; in &apos;{path}&apos; raised {error} at {location}</source>
        <translation>&apos;{path}&apos; 中的工厂函数 &apos;{name}&apos; 在 {location} 抛出 {error}</translation>
    </message>
    <message>
        <source>fix the factory; it must return (model, example_inputs)</source>
        <translation>修正工厂函数；它必须返回 (model, example_inputs)</translation>
    </message>
    <message>
        <source>&apos;{path}&apos; is not a .pt2 archive (truncated or not a zip file)</source>
        <translation>&apos;{path}&apos; 不是 .pt2 归档（被截断或不是 zip 文件）</translation>
    </message>
    <message>
        <source>re-save it with torch.export.save; a partly copied file is truncated</source>
        <translation>用 torch.export.save 重新保存；只复制了一部分的文件是被截断的</translation>
    </message>
    <message>
        <source>&apos;{path}&apos; is an AOTInductor package (compiled code), not an ExportedProgram</source>
        <translation>&apos;{path}&apos; 是 AOTInductor 包（已编译的代码），不是 ExportedProgram</translation>
    </message>
    <message>
        <source>give the model&apos;s factory or a torch.export.save file; a compiled package cannot be compiled again</source>
        <translation>给出模型的工厂函数或 torch.export.save 文件；已编译的包不能再次编译</translation>
    </message>
    <message>
        <source>&apos;{path}&apos; is not a loadable ExportedProgram: {error}</source>
        <translation>&apos;{path}&apos; 不是可加载的 ExportedProgram：{error}</translation>
    </message>
    <message>
        <source>re-save it with torch.export.save from the same torch version</source>
        <translation>用相同版本的 torch 通过 torch.export.save 重新保存</translation>
    </message>
    <message>
        <source>&apos;{path}&apos; carries no example inputs</source>
        <translation>&apos;{path}&apos; 不含示例输入</translation>
    </message>
    <message>
        <source>save it with torch.export.save from torch 2.6 or newer, which stores them</source>
        <translation>用 torch 2.6 或更新版本的 torch.export.save 保存（它会存下示例输入）</translation>
    </message>
    <message>
        <source>unknown sample &apos;{name}&apos;</source>
        <translation>未知的示例模型 &apos;{name}&apos;</translation>
    </message>
    <message>
        <source>choose one of {known}, or open a model file with Model → Open factory…</source>
        <translation>从 {known} 中选择一个，或用“模型 → 打开工厂函数…”打开模型文件</translation>
    </message>
    <message>
        <source>sample &apos;{name}&apos; needs {error}</source>
        <translation>示例模型 &apos;{name}&apos; 需要 {error}</translation>
    </message>
    <message>
        <source>run tools/setup.sh to install the pinned Python packages</source>
        <translation>运行 tools/setup.sh 安装固定版本的 Python 包</translation>
    </message>
    <message>
        <source>&apos;{spec}&apos; names a file but no factory function</source>
        <translation>&apos;{spec}&apos; 指定了文件，但没有指定工厂函数</translation>
    </message>
    <message>
        <source>add the function that returns (model, example_inputs): {spec}:make</source>
        <translation>加上返回 (model, example_inputs) 的函数：{spec}:make</translation>
    </message>
    <message>
        <source>cannot read model spec &apos;{spec}&apos;</source>
        <translation>无法识别模型描述 &apos;{spec}&apos;</translation>
    </message>
    <message>
        <source>choose one of {known}, or open a model file (path/to/file.py:factory or a torch.export.save .pt2) with Model → Open factory…</source>
        <translation>从 {known} 中选择一个，或用“模型 → 打开工厂函数…”打开模型文件（path/to/file.py:factory 或 torch.export.save 的 .pt2）</translation>
    </message>
    <message>
        <source>&apos;{spec}&apos; did not return (model, example_inputs)</source>
        <translation>&apos;{spec}&apos; 没有返回 (model, example_inputs)</translation>
    </message>
    <message>
        <source>&apos;{spec}&apos; returned a {type} as the model, not a torch.nn.Module</source>
        <translation>&apos;{spec}&apos; 返回的模型是 {type}，不是 torch.nn.Module</translation>
    </message>
    <message>
        <source>return (model, args), (model, args, dynamic_shapes) or a dict with keys model, args, kwargs, dynamic_shapes</source>
        <translation>返回 (model, args)、(model, args, dynamic_shapes)，或含键 model、args、kwargs、dynamic_shapes 的字典</translation>
    </message>
    <message>
        <source>cancelled during &apos;{stage}&apos;</source>
        <translation>已在“{stage}”阶段取消</translation>
    </message>
    <message>
        <source>cancelled while Inductor was compiling</source>
        <translation>已在 Inductor 编译时取消</translation>
    </message>
    <message>
        <source>cancelled while measuring</source>
        <translation>已在测量时取消</translation>
    </message>
    <message>
        <source>cancelled while measuring {scheme}</source>
        <translation>已在测量 {scheme} 时取消</translation>
    </message>
    <message>
        <source>cancelled before it started</source>
        <translation>已在开始前取消</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>oversubscribed: on average {others:.1f} other runnable tasks competed for the {usable:d} usable CPUs while timing with {threads:d} threads; each takes a CPU from one of the threads and the rest wait for it, so timings are inflated by an unknown factor. Rerun on an idle machine, or with fewer threads (Run Settings → Threads)</source>
        <translation>超额占用：计时期间平均有 {others:.1f} 个其他可运行任务与 {threads:d} 个线程争用 {usable:d} 个可用 CPU；每个任务都会占走某个线程的 CPU，其余线程只能等待，因此计时被放大了未知的倍数。请在空闲的机器上重新运行，或减少线程数（运行设置 → 线程数）</translation>
    </message>
    <message>
        <source>busy machine: on average {others:.1f} other runnable tasks for the {free:d} CPUs left free by {threads:d} threads</source>
        <translation>机器繁忙：{threads:d} 个线程之外空出的 {free:d} 个 CPU 上平均有 {others:.1f} 个其他可运行任务</translation>
    </message>
    <message>
        <source>the engine&apos;s threads spent {share:.0f}% of their runnable time waiting for a CPU ({waited:.0f} ms waiting, {ran:.0f} ms running; /proc/self/task/*/schedstat): other processes took the CPUs</source>
        <translation>引擎线程在可运行时间中有 {share:.0f}% 在等待 CPU（等待 {waited:.0f} ms，运行 {ran:.0f} ms；/proc/self/task/*/schedstat）：CPU 被其他进程占用</translation>
    </message>
    <message>
        <source>the hypervisor gave {share:.1f}% of the CPU time to other guests (steal in /proc/stat)</source>
        <translation>虚拟机管理程序把 {share:.1f}% 的 CPU 时间分给了其他虚拟机（/proc/stat 中的 steal）</translation>
    </message>
    <message>
        <source>the CPU was thermally throttled {count:d} times while timing</source>
        <translation>计时期间 CPU 因过热降频 {count:d} 次</translation>
    </message>
    <message>
        <source>{variant} timings are spread out (p10 {p10:.4g} ms, median {median:.4g} ms, p90 {p90:.4g} ms)</source>
        <translation>{variant} 的计时分散（p10 {p10:.4g} ms，中位数 {median:.4g} ms，p90 {p90:.4g} ms）</translation>
    </message>
    <message>
        <source>a ratio&apos;s 95% interval is {width:.0f}% of its value wide: more runs or a quieter machine would narrow it</source>
        <translation>某个比值的 95% 区间宽度为其值的 {width:.0f}%：更多次运行或更安静的机器可以使它变窄</translation>
    </message>
    <message>
        <source>neither /proc/stat (procs_running) nor /proc/self/task/*/schedstat could be read: whether other processes competed for the CPUs is unknown</source>
        <translation>/proc/stat（procs_running）和 /proc/self/task/*/schedstat 都无法读取：不知道是否有其他进程争用 CPU</translation>
    </message>
    <message>
        <source>procs_running counts all {online:d} CPUs of the host and this process may use {usable:d}: the load is judged by run delay only</source>
        <translation>procs_running 统计主机全部 {online:d} 个 CPU，而本进程可用 {usable:d} 个：负载只按运行延迟判断</translation>
    </message>
    <message>
        <source>CPU frequency scaling governor is &apos;{governor}&apos; (not &apos;performance&apos;); pairing the variants cancels slow frequency drift</source>
        <translation>CPU 调频策略为 &apos;{governor}&apos;（不是 &apos;performance&apos;）；成对交替计时可抵消缓慢的频率漂移</translation>
    </message>
    <message>
        <source>CPU frequency governor not readable (common in VMs)</source>
        <translation>无法读取 CPU 调频策略（虚拟机中常见）</translation>
    </message>
    <message>
        <source>thermal throttling counters not readable</source>
        <translation>无法读取过热降频计数</translation>
    </message>
    <message>
        <source>forward() uses a tensor&apos;s value as a Python value (an if on it, .item(), a size or index taken from data): use torch.cond or torch.where instead of a Python if, torch._check() to state what the value may be, or make the value static</source>
        <translation>forward() 把张量的值当作 Python 值使用（对它做 if、调用 .item()、用数据得出尺寸或索引）：用 torch.cond 或 torch.where 代替 Python 的 if，用 torch._check() 声明该值的取值范围，或把该值改为静态</translation>
    </message>
    <message>
        <source>forward() uses an op or Python feature torch.export cannot capture; see the log for torch&apos;s message</source>
        <translation>forward() 使用了 torch.export 无法捕获的算子或 Python 特性；torch 的原始信息见日志</translation>
    </message>
    <message>
        <source>a dimension marked dynamic was specialised to a constant; check the dynamic shape spec</source>
        <translation>标记为动态的维度被特化成了常数；请检查动态形状的设置</translation>
    </message>
    <message>
        <source>see the engine log for torch&apos;s full message; torch.export.draft_export() lists every problem at once</source>
        <translation>torch 的完整信息见引擎日志；torch.export.draft_export() 可一次列出所有问题</translation>
    </message>
    <message>
        <source>Inductor has no lowering for an op in the graph (named above): rewrite that part of forward, or report it to PyTorch with the op and the graph node</source>
        <translation>Inductor 无法 lower 图中的某个算子（见上文）：改写 forward 中的这部分，或带上该算子和图节点向 PyTorch 报告</translation>
    </message>
    <message>
        <source>the generated C++ did not compile (see the log for the compiler&apos;s message); report it with the op named above</source>
        <translation>生成的 C++ 代码编译失败（编译器信息见日志）；请带上上文所述的算子报告</translation>
    </message>
    <message>
        <source>see the log for the op and node; if the op is CUDA-only, check the CUDA toolkit and driver</source>
        <translation>算子和节点见日志；若该算子仅支持 CUDA，请检查 CUDA 工具包和驱动</translation>
    </message>
    <message>
        <source>see the log for the op and the graph node Inductor was lowering; report it with that op</source>
        <translation>Inductor 正在 lower 的算子和图节点见日志；请带上该算子报告</translation>
    </message>
    <message>
        <source>ended {tool} (pid {pid:d}), a native build the cancelled job started</source>
        <translation>已结束 {tool}（pid {pid:d}），即被取消的作业启动的本机构建进程</translation>
    </message>
    <message>
        <source>reused the package of an earlier compile with the same graph, weights, inputs and options (compile cache entry {key}): Inductor did not run, about {seconds:.1f} s saved</source>
        <translation>复用了先前一次图、权重、输入和选项均相同的编译所生成的包（编译缓存条目 {key}）：未运行 Inductor，约节省 {seconds:.1f} 秒</translation>
    </message>
    <message>
        <source>compile cache entry {key} is damaged ({problem}): removed, compiling from scratch</source>
        <translation>编译缓存条目 {key} 已损坏（{problem}）：已删除，从头编译</translation>
    </message>
    <message>
        <source>compile cache entry {key} could not be read ({error}): compiling from scratch</source>
        <translation>无法读取编译缓存条目 {key}（{error}）：从头编译</translation>
    </message>
    <message>
        <source>could not keep this compile in the compile cache ({error}); the compile itself is unaffected</source>
        <translation>无法将本次编译保存到编译缓存（{error}）；编译本身不受影响</translation>
    </message>
    <message>
        <source>the compile cache is off for this compile: {error}</source>
        <translation>本次编译未使用编译缓存：{error}</translation>
    </message>
    <message>
        <source>ccache is not installed: Inductor&apos;s generated C++ is built from scratch on every compile (tools/setup.sh installs ccache)</source>
        <translation>未安装 ccache：每次编译都会从头构建 Inductor 生成的 C++（tools/setup.sh 会安装 ccache）</translation>
    </message>
    <message>
        <source>ccache is not used for this compile: its compiler wrapper could not be written ({error})</source>
        <translation>本次编译未使用 ccache：无法写入其编译器包装脚本（{error}）</translation>
    </message>
    <message>
        <source>ccache: {hits:d} of {calls:d} C++ compiles reused ({uncacheable:d} links and probes are never cached)</source>
        <translation>ccache：{calls:d} 次 C++ 编译中复用了 {hits:d} 次（{uncacheable:d} 次链接和探测从不缓存）</translation>
    </message>
    <message>
        <source>CUDA was requested but no CUDA device is available</source>
        <translation>请求了 CUDA，但没有可用的 CUDA 设备</translation>
    </message>
    <message>
        <source>choose CPU in the toolbar&apos;s Device selector, or connect to an engine on a machine with an NVIDIA GPU and driver (Engine → Connect to Remote Engine…)</source>
        <translation>在工具栏的设备选择器中选择 CPU，或连接到一台装有 NVIDIA GPU 和驱动的机器上的引擎（引擎 → 连接到远程引擎…）</translation>
    </message>
    <message>
        <source>give the missing arguments in the factory (return a dict with args and kwargs), or compile a sub-module that takes these inputs alone: write it after the model in the Model box as SPEC#PATH ({modules})</source>
        <translation>在工厂函数中给出缺少的参数（返回含 args 和 kwargs 的字典），或编译只接受这些输入的子模块：在模型框中模型之后写成 SPEC#PATH（{modules}）</translation>
    </message>
    <message>
        <source>a dynamic dimension names the input &apos;{index}&apos;, which the model does not have; its inputs: {inputs} (Model → Inputs… lists them)</source>
        <translation>动态维度指定的输入 &apos;{index}&apos; 在模型中不存在；模型的输入：{inputs}（模型 → 输入… 列出了它们）</translation>
    </message>
    <message>
        <source>the model&apos;s code fixes these sizes (a view/reshape to a constant, a comparison with a constant): make the code size-generic, or make the dimension static again in Model → Inputs…; for a size of 0 or 1 give an example of size &gt;= 2, and for a multiple use a derived Dim (2*Dim(&apos;n&apos;, min=1, max=32)) in the factory&apos;s dynamic_shapes</source>
        <translation>模型代码固定了这些尺寸（view/reshape 为常量、与常量比较）：让代码与尺寸无关，或在 模型 → 输入… 中把该维度改回静态；尺寸为 0 或 1 时请给出尺寸 &gt;= 2 的示例，倍数关系请在工厂函数的 dynamic_shapes 中使用派生 Dim（2*Dim(&apos;n&apos;, min=1, max=32)）</translation>
    </message>
    <message>
        <source>the graph holds {count:d} quantize/dequantize nodes (a PT2E-quantized model): freezing is on, as Inductor lowers them to quantized kernels only when the weights are frozen (turning Freezing off in Run Settings… keeps it off)</source>
        <translation>图中有 {count:d} 个量化/反量化节点（PT2E 量化模型）：已开启冻结，因为只有冻结权重时 Inductor 才会把它们降级为量化内核（在运行设置中关闭冻结可保持关闭）</translation>
    </message>
    <message>
        <source>the graph holds {count:d} quantize/dequantize nodes but freezing is off: Inductor will dequantize the weights and compute in fp32; turn Freezing on in Run Settings…</source>
        <translation>图中有 {count:d} 个量化/反量化节点，但冻结已关闭：Inductor 将反量化权重并以 fp32 计算；请在运行设置中开启冻结</translation>
    </message>
    <message>
        <source>convolutions are {share:.0f}% of the graph&apos;s {gflops:.3g} GFLOP ({convs:d} convolutions) on the CPU: freezing folds batch norms into them and pre-packs their weights for oneDNN</source>
        <translation>在 CPU 上，卷积占该图 {gflops:.3g} GFLOP 的 {share:.0f}%（{convs:d} 个卷积）：冻结会把批归一化折叠进卷积，并为 oneDNN 预先打包其权重</translation>
    </message>
    <message>
        <source>convolutions are {share:.0f}% of the graph&apos;s {gflops:.3g} GFLOP on the CPU (freezing from {threshold:.0f}%): AOTInductor&apos;s defaults, as freezing makes matrix multiplies oneDNN calls that are slower at these sizes</source>
        <translation>在 CPU 上，卷积占该图 {gflops:.3g} GFLOP 的 {share:.0f}%（达到 {threshold:.0f}% 才冻结）：使用 AOTInductor 默认设置，因为冻结会把矩阵乘法变成在这些尺寸下更慢的 oneDNN 调用</translation>
    </message>
    <message>
        <source>the graph has no convolution or matrix multiply: AOTInductor&apos;s defaults (freezing has nothing to pack)</source>
        <translation>该图没有卷积或矩阵乘法：使用 AOTInductor 默认设置（冻结没有可打包的权重）</translation>
    </message>
    <message>
        <source>no recipe rule is measured on {device} yet: AOTInductor&apos;s defaults</source>
        <translation>尚未在 {device} 上测量过配方规则：使用 AOTInductor 默认设置</translation>
    </message>
    <message>
        <source>named by the request (recipe {name})</source>
        <translation>由请求指定（配方 {name}）</translation>
    </message>
    <message>
        <source>the request sets {fields} itself (command-line flags or a recipe file), so no recipe is chosen</source>
        <translation>请求自行设置了 {fields}（命令行选项或配方文件），因此不自动选择配方</translation>
    </message>
    <message>
        <source>a quantized model: freezing follows its quantization (on for quantize/dequantize nodes and int8-static), so no recipe is chosen</source>
        <translation>量化模型：冻结随其量化方式而定（有量化/反量化节点或 int8-static 时开启），因此不自动选择配方</translation>
    </message>
    <message>
        <source>freezing keeps the weights ({mb:.3g} MB) inside each package as packed constants, not shared: {buckets:d} bucket(s) hold {extra_mb:.3g} MB more than one shared copy, on disk and in memory once all are loaded</source>
        <translation>冻结会把权重（{mb:.1f} MB）作为打包常量保留在每个包内，不能共享：{buckets:d} 个档位比共享一份多占 {extra_mb:.3g} MB，磁盘上如此，全部加载后内存中亦然</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>AOT Studio</source>
        <translation>AOT Studio</translation>
    </message>
    <message>
        <source>AOT Studio: compile PyTorch models ahead of time with AOTInductor.</source>
        <translation>AOT Studio：使用 AOTInductor 预先编译 PyTorch 模型。</translation>
    </message>
    <message>
        <source>Model to select: sample:NAME or file.py:factory.</source>
        <translation>要选择的模型：sample:名称 或 file.py:factory。</translation>
    </message>
    <message>
        <source>spec</source>
        <translation>模型说明</translation>
    </message>
    <message>
        <source>Device to select: cpu or cuda.</source>
        <translation>要选择的设备：cpu 或 cuda。</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Output folder for the job.</source>
        <translation>任务的输出文件夹。</translation>
    </message>
    <message>
        <source>dir</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>Start compiling as soon as the engine is ready.</source>
        <translation>引擎就绪后立即开始编译。</translation>
    </message>
    <message>
        <source>After the first result or error, save the window as PNG to FILE and quit.</source>
        <translation>在第一个结果或错误出现后，将窗口保存为 PNG 文件 FILE 并退出。</translation>
    </message>
    <message>
        <source>FILE</source>
        <translation>FILE</translation>
    </message>
    <message>
        <source>With --screenshot: take it after this many milliseconds at the latest.</source>
        <translation>与 --screenshot 一起使用：最迟在这么多毫秒后截图。</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>Interface language: en or zh_CN.</source>
        <translation>界面语言：en 或 zh_CN。</translation>
    </message>
    <message>
        <source>language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>--screenshot-after-ms needs a number</source>
        <translation>--screenshot-after-ms 需要一个数字</translation>
    </message>
    <message>
        <source>aotstudio: language &quot;%1&quot; is not available, using English. Available languages: %2.</source>
        <translation>aotstudio：语言“%1”不可用，将使用英语。可用语言：%2。</translation>
    </message>
    <message>
        <source>unknown device &quot;%1&quot;: use cpu or cuda.</source>
        <translation>未知设备“%1”：请使用 cpu 或 cuda。</translation>
    </message>
    <message>
        <source>give at most one session file</source>
        <translation>最多只能指定一个会话文件</translation>
    </message>
    <message>
        <source>Run the engine on another machine: &quot;ssh [-p PORT] [-i KEY] [USER@]HOST PATH-OF-aotstudio-engine --serve [--jobs DIR]&quot; (as Engine → Connect…).</source>
        <translation>在另一台机器上运行引擎：&quot;ssh [-p PORT] [-i KEY] [USER@]HOST PATH-OF-aotstudio-engine --serve [--jobs DIR]&quot;（同 引擎 → 连接…）。</translation>
    </message>
    <message>
        <source>command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>--engine takes an ssh command: &quot;ssh [-p PORT] [USER@]HOST PATH-OF-aotstudio-engine --serve&quot;, not &quot;%1&quot;</source>
        <translation>--engine 需要一条 ssh 命令：&quot;ssh [-p PORT] [USER@]HOST PATH-OF-aotstudio-engine --serve&quot;，而不是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>A saved session (.aotsession), or a job folder of aotstudio-cli numerics or tune, to open without running anything.</source>
        <translation>要打开的已保存会话（.aotsession），或 aotstudio-cli numerics 或 tune 的作业文件夹；不会运行任何内容。</translation>
    </message>
    <message>
        <source>Bring this dock to the front at start: graph, kernels, memory, profile, quantization, sweep or tune.</source>
        <translation>启动时将此停靠面板置于最前：graph、kernels、memory、profile、quantization、sweep 或 tune。</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Run jobs in the engine of this target environment (aotstudio-cli target list names them; &quot;&quot; for the studio&apos;s own), as the Target selector.</source>
        <translation>在此目标环境的引擎中运行作业（aotstudio-cli target list 列出其名称；&quot;&quot; 表示 AOT Studio 自带的引擎），同“目标”选择器。</translation>
    </message>
</context>
</TS>

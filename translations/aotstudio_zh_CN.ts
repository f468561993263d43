<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AotStudio::Client::EngineClient</name>
    <message>
        <source>The engine was not found: looked for %1 and for %2 on PATH. Set AOTSTUDIO_ENGINE to its path.</source>
        <translation>未找到引擎：已查找 %1，并在 PATH 中查找 %2。请将 AOTSTUDIO_ENGINE 设置为引擎的路径。</translation>
    </message>
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
</context>
<context>
    <name>AotStudio::Widgets::MainWindow</name>
    <message>
        <source>AOT Studio</source>
        <translation>AOT Studio</translation>
    </message>
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
        <source>sample:NAME, or path/to/file.py:factory</source>
        <translation>sample:名称，或 path/to/file.py:factory</translation>
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
        <source>The language will change the next time AOT Studio starts.</source>
        <translation>语言将在下次启动 AOT Studio 时更改。</translation>
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
        <source>Restarting the engine.</source>
        <translation>正在重启引擎。</translation>
    </message>
    <message>
        <source>Pick a model first.</source>
        <translation>请先选择一个模型。</translation>
    </message>
    <message>
        <source>Cannot create the output folder %1.</source>
        <translation>无法创建输出文件夹 %1。</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Compiling %1 on %2 into %3</source>
        <translation>正在 %2 上编译 %1，输出到 %3</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
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
        <source>Done</source>
        <translation>完成</translation>
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
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Compile failed</source>
        <translation>编译失败</translation>
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
        <source>The engine stopped during this job.</source>
        <translation>引擎在此任务运行期间停止。</translation>
    </message>
    <message>
        <source>Compiling %1…</source>
        <translation>正在编译 %1…</translation>
    </message>
    <message>
        <source>CUDA was requested, but the engine reports no CUDA device (torch %1, CUDA %2). Nothing was compiled; choose CPU to compile on the CPU.</source>
        <translation>请求使用 CUDA，但引擎报告没有 CUDA 设备（torch %1，CUDA %2）。未进行编译；如需在 CPU 上编译，请选择 CPU。</translation>
    </message>
    <message>
        <source>%1: done in %2 s</source>
        <translation>%1：完成，用时 %2 秒</translation>
    </message>
    <message>
        <source>Snapshot %1: %2 nodes</source>
        <translation>快照 %1：%2 个节点</translation>
    </message>
    <message>
        <source>Compiling %1 was cancelled.</source>
        <translation>编译 %1 已取消。</translation>
    </message>
    <message>
        <source>Compiling %1 failed: %2</source>
        <translation>编译 %1 失败：%2</translation>
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
        <source>&amp;Export Bundle…</source>
        <translation>导出部署包(&amp;E)…</translation>
    </message>
    <message>
        <source>Package the last compile&apos;s model as a bundle of batch-size packages (Ctrl+E)</source>
        <translation>将上次编译的模型打包为按批大小划分的部署包（Ctrl+E）</translation>
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
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Export · %1</source>
        <translation>导出 · %1</translation>
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
        <source>Exporting the bundle %1 was cancelled.</source>
        <translation>导出部署包 %1 已取消。</translation>
    </message>
    <message>
        <source>Exporting the bundle %1 failed: %2</source>
        <translation>导出部署包 %1 失败：%2</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
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
        <source>%1×</source>
        <translation>%1×</translation>
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
        <source>(%1×)</source>
        <translation>（%1×）</translation>
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
</context>
</TS>

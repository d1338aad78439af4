<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="83"/>
        <source>%1 training and %2 test programs of %3; test: %4</source>
        <translation>%3 中的 %1 个训练程序和 %2 个测试程序；测试集：%4</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="87"/>
        <source>the last 30% of each task&apos;s records</source>
        <translation>每个任务最后 30% 的记录</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="88"/>
        <source>held-out %1</source>
        <translation>留出：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="102"/>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="102"/>
        <source>top-1</source>
        <translation>top-1</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="102"/>
        <source>top-5</source>
        <translation>top-5</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="102"/>
        <source>pairwise</source>
        <translation>成对准确率</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="103"/>
        <source>RMSE</source>
        <translation>RMSE</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="103"/>
        <source>peak@1</source>
        <translation>peak@1</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="103"/>
        <source>train s</source>
        <translation>训练 (秒)</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="103"/>
        <source>programs/s</source>
        <translation>程序/秒</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="104"/>
        <source>size KB</source>
        <translation>大小 (KB)</translation>
    </message>
</context>
<context>
    <name>ts::app::CodeView</name>
    <message>
        <location filename="../app/gui/code_view.cpp" line="54"/>
        <source>No %1: %2</source>
        <translation>无%1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="88"/>
        <location filename="../app/gui/code_view.cpp" line="175"/>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="89"/>
        <source>Loop nest</source>
        <translation>循环嵌套</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="90"/>
        <location filename="../app/gui/code_view.cpp" line="176"/>
        <source>Loop IR</source>
        <translation>循环 IR</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="91"/>
        <location filename="../app/gui/code_view.cpp" line="360"/>
        <location filename="../app/gui/code_view.cpp" line="362"/>
        <source>LLVM IR</source>
        <translation>LLVM IR</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="92"/>
        <location filename="../app/gui/code_view.cpp" line="361"/>
        <source>Assembly</source>
        <translation>汇编</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="93"/>
        <source>Step through</source>
        <translation>逐步查看</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="94"/>
        <source>Diff</source>
        <translation>差异对比</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="96"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="98"/>
        <source>&amp;Pin for Diff</source>
        <translation>固定以对比(&amp;P)</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="99"/>
        <source>Keep the selected schedule state to compare other states with (Code view, Diff tab)</source>
        <translation>保留所选调度状态，用于与其他状态对比（代码视图的“差异对比”标签页）</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="101"/>
        <source>Clear Diff Pin</source>
        <translation>清除对比固定</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="103"/>
        <source>&amp;Edit a Copy</source>
        <translation>编辑副本(&amp;E)</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="104"/>
        <source>Edit a copy of the selected schedule state&apos;s steps (Code view, Edit tab): the loop nest, loop IR and model score follow as you type</source>
        <translation>编辑所选调度状态步骤的副本（代码视图的“编辑”标签页）：循环嵌套、循环 IR 和模型得分随输入实时更新</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="140"/>
        <source>Back</source>
        <translation>后退</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="141"/>
        <source>Undo the last step shown</source>
        <translation>撤回最后显示的一步</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="145"/>
        <source>Forward</source>
        <translation>前进</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="146"/>
        <source>Apply the next step</source>
        <translation>应用下一步</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="174"/>
        <source>Compare:</source>
        <translation>对比：</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="268"/>
        <source>Select a task, then a schedule state (a trial, a record, a sketch) to see its code.</source>
        <translation>先选择一个任务，再选择一个调度状态（一次试验、一条记录或一个草图）以查看其代码。</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="272"/>
        <source>%1: select a schedule state (a trial, a record, a sketch) to see its code.</source>
        <translation>%1：选择一个调度状态（一次试验、一条记录或一个草图）以查看其代码。</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="278"/>
        <source>%1: a schedule of one step</source>
        <translation>%1：包含 1 个步骤的调度</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="279"/>
        <source>%1: a schedule of %2 steps</source>
        <translation>%1：包含 %2 个步骤的调度</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="281"/>
        <source>, record %1</source>
        <translation>，记录 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="323"/>
        <source>(no steps: the default schedule)</source>
        <translation>（无步骤：默认调度）</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="324"/>
        <location filename="../app/gui/code_view.cpp" line="521"/>
        <source>computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="345"/>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="356"/>
        <source>loop nest</source>
        <translation>循环嵌套</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="358"/>
        <location filename="../app/gui/code_view.cpp" line="529"/>
        <source>loop IR</source>
        <translation>循环 IR</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="360"/>
        <location filename="../app/gui/code_view.cpp" line="362"/>
        <source>CUDA C</source>
        <translation>CUDA C</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="361"/>
        <location filename="../app/gui/code_view.cpp" line="363"/>
        <source>PTX</source>
        <translation>PTX</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="363"/>
        <source>assembly</source>
        <translation>汇编</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="368"/>
        <source>No per-stage scores: %1</source>
        <translation>无逐阶段得分：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="370"/>
        <source>Per-stage scores (higher is better) of the %1 model, %2.</source>
        <translation>%1 模型的逐阶段得分（越高越好），%2。</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="373"/>
        <source>Per-stage estimated time in µs of the %1 model, %2.</source>
        <translation>%1 模型的逐阶段估计耗时（µs），%2。</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="376"/>
        <source>(Not the session&apos;s own model: %1.)</source>
        <translation>（并非该会话自己的模型：%1。）</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="407"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="408"/>
        <source>%1 / %2   +%3 −%4 lines</source>
        <translation>%1 / %2   +%3 −%4 行</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="409"/>
        <source>Lines the step added (highlighted) and removed</source>
        <translation>该步骤新增（高亮）和删除的行</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="410"/>
        <source>The initial state: one loop nest per op, no step applied yet.</source>
        <translation>初始状态：每个算子一个循环嵌套，尚未应用任何步骤。</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="411"/>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="415"/>
        <source>This prefix of the steps does not replay: %1</source>
        <translation>这一段步骤前缀无法重放：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="503"/>
        <source>No state is pinned: select a state, use Pin for Diff, then select another state.</source>
        <translation>尚未固定任何状态：选择一个状态，点击“固定以对比”，再选择另一个状态。</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="508"/>
        <source>Pinned: %1. Select a state to compare with it.</source>
        <translation>已固定：%1。请选择一个状态与之对比。</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="520"/>
        <source>Pinned: %1.</source>
        <translation>已固定：%1。</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="529"/>
        <source>steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="531"/>
        <source>Pinned: %1. The selected state has the same %2.</source>
        <translation>已固定：%1。所选状态的%2与之相同。</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="532"/>
        <source>No differences.</source>
        <translation>没有差异。</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="534"/>
        <source>The %1 of the pinned state (−, %2) and of the selected one (+, %3).</source>
        <translation>固定状态（−，%2）与所选状态（+，%3）的%1。</translation>
    </message>
</context>
<context>
    <name>ts::app::ConstraintDialog</name>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="21"/>
        <source>innermost tile</source>
        <translation>最内层分块</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="22"/>
        <source>second innermost</source>
        <translation>次内层</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="23"/>
        <source>third innermost</source>
        <translation>第三内层</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="24"/>
        <source>outermost</source>
        <translation>最外层</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="25"/>
        <source>second outermost</source>
        <translation>次外层</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="56"/>
        <source>Add a constraint to %1</source>
        <translation>为 %1 添加约束</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="66"/>
        <source>split factor</source>
        <translation>拆分因子</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="67"/>
        <source>unroll limit</source>
        <translation>展开上限</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="68"/>
        <source>vector length</source>
        <translation>向量长度</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="69"/>
        <source>parallel extent</source>
        <translation>并行范围</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="70"/>
        <source>sketch rule</source>
        <translation>草图规则</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="75"/>
        <source>equals</source>
        <translation>等于</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="76"/>
        <source>at least</source>
        <translation>至少</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="77"/>
        <source>at most</source>
        <translation>至多</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="78"/>
        <source>one of</source>
        <translation>取其一</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="79"/>
        <source>a number; for &quot;one of&quot;: 0, 16, 64</source>
        <translation>一个数；“取其一”时：0, 16, 64</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="80"/>
        <source>forbid</source>
        <translation>禁止</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="81"/>
        <source>require</source>
        <translation>要求</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="100"/>
        <source>Task:</source>
        <translation>任务：</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="101"/>
        <source>Kind:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="102"/>
        <source>Split:</source>
        <translation>拆分：</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="103"/>
        <source>Bound:</source>
        <translation>界限：</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="104"/>
        <source>Sketch rule:</source>
        <translation>草图规则：</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="152"/>
        <source>%1.%2 has extent %3. A split of it can pin its %4 to one of its divisors: %5.</source>
        <translation>%1.%2 的范围为 %3。对它的拆分可将其%4固定为它的某个约数：%5。</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="160"/>
        <source>Bounds every auto_unroll_max_step the search picks (Ansor picks among 0, 16, 64 and 512 on a CPU).</source>
        <translation>限制搜索选取的每个 auto_unroll_max_step（在 CPU 上 Ansor 从 0、16、64 和 512 中选取）。</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="163"/>
        <source>Bounds the extent of every vectorised loop.</source>
        <translation>限制每个向量化循环的范围。</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="166"/>
        <source>Bounds, per stage, the product of its parallel loops&apos; extents: the work the threads share.</source>
        <translation>按阶段限制其并行循环范围之积，即各线程分担的工作量。</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="169"/>
        <source>Sketches that break the rule are not sampled at all.</source>
        <translation>违反该规则的草图完全不会被采样。</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="183"/>
        <source>&quot;%1&quot; is not a whole number</source>
        <translation>“%1”不是整数</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="188"/>
        <source>give a value for the bound</source>
        <translation>请给出界限值</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="190"/>
        <source>one value, or choose &quot;one of&quot; for a list</source>
        <translation>只能填一个值；如需列表请选择“取其一”</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="220"/>
        <source>the task has no loop to split</source>
        <translation>该任务没有可拆分的循环</translation>
    </message>
</context>
<context>
    <name>ts::app::CurvesView</name>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="23"/>
        <source>Against wall time</source>
        <translation>按墙钟时间</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="24"/>
        <source>Compare with…</source>
        <translation>与其他会话对比…</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="28"/>
        <source>Tuning curves against wall time instead of trials</source>
        <translation>调优曲线以墙钟时间而非试验次数为横轴</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="32"/>
        <source>Overlay other sessions of the workspace on the tuning curves</source>
        <translation>在调优曲线上叠加工作区中的其他会话</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="81"/>
        <source>measured %1 ms (Run network; estimate %2 ms)</source>
        <translation>实测 %1 ms（运行网络；估计 %2 ms）</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="84"/>
        <source>measured %1 ms (Run network; %2 of %3 tasks tuned)</source>
        <translation>实测 %1 ms（运行网络；已调优 %2/%3 个任务）</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="118"/>
        <source>#%1 %2 + %3, seed %4 (%5)</source>
        <translation>#%1 %2 + %3，种子 %4（%5）</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="130"/>
        <source>No other session in this workspace</source>
        <translation>该工作区中没有其他会话</translation>
    </message>
</context>
<context>
    <name>ts::app::ExplorerView</name>
    <message>
        <location filename="../app/gui/explorer_view.cpp" line="26"/>
        <source>Loading networks…</source>
        <translation>正在加载网络…</translation>
    </message>
    <message>
        <location filename="../app/gui/explorer_view.cpp" line="36"/>
        <source>Batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <location filename="../app/gui/explorer_view.cpp" line="37"/>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
</context>
<context>
    <name>ts::app::MainWindow</name>
    <message>
        <location filename="../app/gui/main_window.cpp" line="59"/>
        <source>TuneScope</source>
        <translation>TuneScope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="61"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="62"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="63"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="64"/>
        <source>&amp;Session</source>
        <translation>会话(&amp;S)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="79"/>
        <source>A tuning session is running</source>
        <translation>调优会话正在运行</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="80"/>
        <source>Stop the session after the batch in flight and close? Everything measured so far is kept in the workspace, and the session can be resumed later.</source>
        <translation>在当前批次完成后停止会话并关闭？目前已测量的所有结果都会保存在工作区中，之后可以恢复该会话。</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="150"/>
        <source>&amp;Open workspace…</source>
        <translation>打开工作区(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="153"/>
        <location filename="../app/gui/main_window.cpp" line="167"/>
        <source>A session is running in this workspace: cancel it before opening another.</source>
        <translation>该工作区中有会话正在运行：请先取消它，再打开其他工作区。</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="157"/>
        <source>Open or create a workspace</source>
        <translation>打开或新建工作区</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="158"/>
        <source>TuneScope workspaces (*.tunescope);;All files (*)</source>
        <translation>TuneScope 工作区 (*.tunescope);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="164"/>
        <source>Open &amp;server workspace…</source>
        <translation>打开服务器工作区(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="171"/>
        <source>Open a server workspace</source>
        <translation>打开服务器工作区</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="172"/>
        <source>PostgreSQL URL (the password from ~/.pgpass or PGPASSFILE, never stored here):</source>
        <translation>PostgreSQL URL（密码取自 ~/.pgpass 或 PGPASSFILE，此处从不保存）：</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="178"/>
        <source>Not a PostgreSQL URL: %1</source>
        <translation>不是 PostgreSQL URL：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="184"/>
        <source>Open &amp;model (ONNX)…</source>
        <translation>打开模型 (ONNX)(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="186"/>
        <source>Open an ONNX model</source>
        <translation>打开 ONNX 模型</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="186"/>
        <source>ONNX models (*.onnx);;All files (*)</source>
        <translation>ONNX 模型 (*.onnx);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="191"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="195"/>
        <source>View</source>
        <translation>视图</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="208"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="209"/>
        <source>&amp;About TuneScope</source>
        <translation>关于 TuneScope(&amp;A)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="210"/>
        <source>About TuneScope</source>
        <translation>关于 TuneScope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="211"/>
        <source>TuneScope %1
A workbench for tuning tensor programs.</source>
        <translation>TuneScope %1
张量程序调优工作台。</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="217"/>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="227"/>
        <source>&amp;New session…</source>
        <translation>新建会话(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="229"/>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="230"/>
        <source>&amp;Resume</source>
        <translation>继续(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="231"/>
        <source>&amp;Cancel after this batch</source>
        <translation>本批次结束后取消(&amp;C)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="241"/>
        <source> Model: </source>
        <translation> 模型： </translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="244"/>
        <source>The running session&apos;s cost model. Choose another to switch: it learns from every record of the session&apos;s tasks, then ranks the following rounds.</source>
        <translation>正在运行的会话所用的代价模型。选择另一个即可切换：新模型先从该会话各任务的全部记录中学习，再为后续各轮排序。</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="258"/>
        <source>Switching the cost model to %1 before the next round…</source>
        <translation>将在下一轮之前把代价模型切换为 %1…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="268"/>
        <source>The session now ranks with %1 (was %2).</source>
        <translation>会话现在使用 %1 排序（原为 %2）。</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="269"/>
        <source>The session keeps %1: switching to %2 failed: %3</source>
        <translation>会话继续使用 %1：切换到 %2 失败：%3</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="285"/>
        <source>Steering refused: %1: %2</source>
        <translation>引导被拒绝：%1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="286"/>
        <source>Steering done: %1 (record %2)</source>
        <translation>引导完成：%1（记录 %2）</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="287"/>
        <source>Steering done: %1</source>
        <translation>引导完成：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="334"/>
        <source>%1 of %2 trials</source>
        <translation>%1 / %2 次试验</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="338"/>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="339"/>
        <source>cancelling after the batch in flight…</source>
        <translation>将在当前批次完成后取消…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="340"/>
        <source>starting: restoring the workspace…</source>
        <translation>启动中：正在恢复工作区…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="342"/>
        <source>measuring %1: built %2, measured %3 of %4</source>
        <translation>正在测量 %1：已构建 %2，已测量 %3/%4</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="348"/>
        <source>searching %1</source>
        <translation>正在搜索 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="351"/>
        <source>updating the cost model</source>
        <translation>正在更新代价模型</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="353"/>
        <source>training the new cost model on the session&apos;s records</source>
        <translation>正在用会话的记录训练新的代价模型</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="355"/>
        <source>re-measuring the best candidates</source>
        <translation>正在重新测量最佳候选</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="357"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="360"/>
        <source> — ETA %1</source>
        <translation> — 预计剩余 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="361"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="361"/>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="369"/>
        <source>Session %1 %2.</source>
        <translation>会话 %1 %2。</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="370"/>
        <source>Session %1 %2: %3</source>
        <translation>会话 %1 %2：%3</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="384"/>
        <source>TuneScope — %1</source>
        <translation>TuneScope — %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="392"/>
        <source>Importing %1…</source>
        <translation>正在导入 %1…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="445"/>
        <source>%1task %2: %3 ops, %4 GFLOP, weight %5, key %6</source>
        <translation>%1任务 %2：%3 个算子，%4 GFLOP，权重 %5，键 %6</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="476"/>
        <source>Closing after the batch in flight…</source>
        <translation>将在当前批次完成后关闭…</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="27"/>
        <source>Explorer</source>
        <translation>资源管理器</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="32"/>
        <source>Sketches</source>
        <translation>草图</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="35"/>
        <source>Sessions</source>
        <translation>会话列表</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="37"/>
        <source>Compute DAG</source>
        <translation>计算 DAG</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="41"/>
        <source>Task details</source>
        <translation>任务详情</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="46"/>
        <source>Tuning curves</source>
        <translation>调优曲线</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="48"/>
        <source>Predicted vs measured</source>
        <translation>预测值 vs 实测值</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="50"/>
        <source>Task scheduler</source>
        <translation>任务调度器</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="52"/>
        <source>Network run</source>
        <translation>网络运行</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="55"/>
        <source>Race</source>
        <translation>竞速</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="58"/>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="61"/>
        <source>Steering</source>
        <translation>引导</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="64"/>
        <source>Model comparison</source>
        <translation>模型对比</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="67"/>
        <source>Roofline</source>
        <translation>Roofline 模型</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="70"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="72"/>
        <source>Records</source>
        <translation>记录</translation>
    </message>
</context>
<context>
    <name>ts::app::ModelComparisonView</name>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="116"/>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="117"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="132"/>
        <source>Cost model kinds, comma-separated (tunescope-cli compare-models --models)</source>
        <translation>代价模型类型，以逗号分隔（tunescope-cli compare-models --models）</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="133"/>
        <source>the open workspace</source>
        <translation>当前打开的工作区</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="134"/>
        <source>A workspace holding a dataset (&apos;tunescope-cli collect&apos; makes one)</source>
        <translation>包含数据集的工作区（可用 “tunescope-cli collect” 生成）</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="135"/>
        <source>none: the last 30% of each task&apos;s records</source>
        <translation>无：每个任务最后 30% 的记录</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="136"/>
        <source>Networks whose tasks are the test set, e.g. resnet-50,mobilenet-v2,bert-base</source>
        <translation>其任务作为测试集的网络，例如 resnet-50,mobilenet-v2,bert-base</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="147"/>
        <source>no search</source>
        <translation>不搜索</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="148"/>
        <source> tasks</source>
        <translation> 个任务</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="149"/>
        <source>Then let each trained model guide an Ansor session on this many test tasks</source>
        <translation>然后让每个训练好的模型在这么多个测试任务上指导一次 Ansor 会话</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="152"/>
        <source> trials each</source>
        <translation> 次试验/任务</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="159"/>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="160"/>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="161"/>
        <source>Hold out</source>
        <translation>留出</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="162"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="187"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="188"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="206"/>
        <source>No workspace is open; name a dataset.</source>
        <translation>没有打开的工作区；请指定一个数据集。</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="206"/>
        <source>Name a model.</source>
        <translation>请指定一个模型。</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="214"/>
        <source>Loading the dataset...</source>
        <translation>正在加载数据集...</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="221"/>
        <source>The comparison failed: %1</source>
        <translation>对比失败：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="253"/>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="263"/>
        <source>%1 (pairwise %2)</source>
        <translation>%1（成对准确率 %2）</translation>
    </message>
</context>
<context>
    <name>ts::app::NetworkRunView</name>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="28"/>
        <source>Run &amp;network</source>
        <translation>运行网络(&amp;N)</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="29"/>
        <source>beside LibTorch</source>
        <translation>与 LibTorch 对照</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="30"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="38"/>
        <source>Run the shown session&apos;s network whole from the workspace&apos;s best records: every kernel built and checked, whole runs timed, beside Ansor&apos;s estimate</source>
        <translation>用工作区中的最佳记录完整运行当前会话的网络：构建并校验每个内核，对整网运行计时，并与 Ansor 的估计对照</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="40"/>
        <source>Also run the network in LibTorch on the same weights and input, and compare</source>
        <translation>同时用相同的权重和输入在 LibTorch 中运行该网络并进行比较</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="98"/>
        <source>building…</source>
        <translation>构建中…</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="101"/>
        <source>Running %1 from the workspace&apos;s best records…</source>
        <translation>正在用工作区的最佳记录运行 %1…</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="109"/>
        <source>The run of %1 failed: %2</source>
        <translation>%1 运行失败：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="130"/>
        <source>The network run was cancelled.</source>
        <translation>网络运行已取消。</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="132"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="143"/>
        <source>Show a network&apos;s session to run the network whole from its best records.</source>
        <translation>请显示某个网络的会话，以便用其最佳记录完整运行该网络。</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="147"/>
        <source>%1 has not been run whole in this window yet: Run network builds every kernel from the workspace&apos;s best records, checks it and times whole runs.</source>
        <translation>%1 尚未在此窗口中完整运行过：“运行网络”会用工作区的最佳记录构建每个内核、进行校验，并对整网运行计时。</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="152"/>
        <source>&lt;b&gt;%1 ms&lt;/b&gt; measured (median of %2 runs, p90 %3 ms) on %4, %5 kernels, all checked against the reference evaluator</source>
        <translation>在 %4 上实测 &lt;b&gt;%1 ms&lt;/b&gt;（%2 次运行的中位数，p90 %3 ms），共 %5 个内核，均已与参考求值器核对</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="160"/>
        <source>; Ansor&apos;s estimate %1 ms, measured / estimate &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>；Ansor 估计 %1 ms，实测 / 估计 = &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="164"/>
        <source>; Ansor&apos;s estimate %1 ms for the %2 of %3 tasks tuned, which measured %4 ms of it (%5x); the others ran their default schedule</source>
        <translation>；Ansor 对已调优的 %2/%3 个任务估计 %1 ms，这些任务实测 %4 ms（%5x）；其余任务使用默认调度运行</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="172"/>
        <source>; no task has a record on this machine, so every kernel ran its default schedule</source>
        <translation>；本机上没有任何任务的记录，因此所有内核都以默认调度运行</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="174"/>
        <source>&lt;br&gt;%1: %2 ms, outputs %3; TuneScope is &lt;b&gt;%4x&lt;/b&gt; its speed</source>
        <translation>&lt;br&gt;%1：%2 ms，输出%3；TuneScope 的速度是它的 &lt;b&gt;%4x&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="177"/>
        <source>equal</source>
        <translation>一致</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="177"/>
        <source>DIFFERENT</source>
        <translation>不一致</translation>
    </message>
</context>
<context>
    <name>ts::app::PredictionView</name>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="67"/>
        <source>How many of the latest rounds the scatter shows</source>
        <translation>散点图显示最近多少轮</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="68"/>
        <source>Last &amp;rounds:</source>
        <translation>最近轮数(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Points</source>
        <translation>点数</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Random</source>
        <translation>随机</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Pairwise</source>
        <translation>成对准确率</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Spearman</source>
        <translation>Spearman</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="73"/>
        <source>Successful trials with a predicted score</source>
        <translation>带预测得分的成功试验</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="75"/>
        <source>The fraction of pairs of trials the model orders as they measured (0.5: chance)</source>
        <translation>模型排序与实测顺序一致的试验对所占比例（0.5：随机水平）</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="77"/>
        <source>Rank correlation of predicted score and measured GFLOP/s (1: the same order)</source>
        <translation>预测得分与实测 GFLOP/s 的秩相关系数（1：顺序完全一致）</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="87"/>
        <source>Pairwise accuracy</source>
        <translation>成对准确率</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="88"/>
        <source>Spearman&apos;s rho</source>
        <translation>Spearman ρ</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="89"/>
        <source>What the lines show per round: the fraction of candidate pairs a model put in the measured order (0.5: chance), or its rank correlation with the measured throughput (0: none)</source>
        <translation>曲线按轮显示：模型排序与实测顺序一致的候选对比例（0.5：随机水平），或其与实测吞吐量的秩相关系数（0：无相关）</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="92"/>
        <source>&amp;Metric:</source>
        <translation>指标(&amp;M)：</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="94"/>
        <source>&lt;b&gt;Shadow models&lt;/b&gt;</source>
        <translation>&lt;b&gt;影子模型&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="95"/>
        <source>Extra cost models chosen for the session: each learns from the same records as the session&apos;s model and scores every round&apos;s candidates, without steering the search</source>
        <translation>为会话额外选择的代价模型：每个都与会话模型从相同的记录中学习，并为每轮候选打分，但不引导搜索</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="97"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="97"/>
        <source>Rounds</source>
        <translation>轮数</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="97"/>
        <source>Mean pairwise</source>
        <translation>平均成对准确率</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="97"/>
        <source>Mean Spearman</source>
        <translation>平均 Spearman</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="99"/>
        <source>Rounds in the means: those with metrics and two or more successful measurements</source>
        <translation>计入平均值的轮次：有指标且至少有两次成功测量的轮次</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="165"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="202"/>
        <source>%1 (session)</source>
        <translation>%1（会话）</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="204"/>
        <source>%1 (failed)</source>
        <translation>%1（失败）</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="209"/>
        <source>The session&apos;s model: its scores ranked the candidates</source>
        <translation>会话的模型：由它的得分为候选排序</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="210"/>
        <source>A shadow model: it scored the candidates, without steering</source>
        <translation>影子模型：为候选打分，但不引导搜索</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="242"/>
        <source>Record %1 is not in the shown session.</source>
        <translation>记录 %1 不在当前显示的会话中。</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="242"/>
        <source>Click a point to select its record.</source>
        <translation>点击一个点以选中其记录。</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="249"/>
        <source>Record %1, round %2:</source>
        <translation>记录 %1，第 %2 轮：</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="250"/>
        <source>predicted score %1</source>
        <translation>预测得分 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="250"/>
        <source>no predicted score</source>
        <translation>无预测得分</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="252"/>
        <source>rank %1 of %2 in its batch</source>
        <translation>在其批次中排名 %1/%2</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="254"/>
        <source>a random pick</source>
        <translation>随机选取</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="256"/>
        <source>measured %1 GFLOP/s</source>
        <translation>实测 %1 GFLOP/s</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="257"/>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
</context>
<context>
    <name>ts::app::RaceView</name>
    <message>
        <location filename="../app/gui/race_view.cpp" line="48"/>
        <source>New race</source>
        <translation>新建竞速</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="51"/>
        <source>Selected task: %1</source>
        <translation>所选任务：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="52"/>
        <source>Selected task (none selected)</source>
        <translation>所选任务（未选择）</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="54"/>
        <source>Operator:</source>
        <translation>算子：</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="74"/>
        <source>Policy 1:</source>
        <translation>策略 1：</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="75"/>
        <source>Policy 2:</source>
        <translation>策略 2：</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="79"/>
        <source>Trials per policy:</source>
        <translation>每个策略的试验次数：</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="83"/>
        <source>Measures per round:</source>
        <translation>每轮测量数：</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="87"/>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="93"/>
        <source>Start race</source>
        <translation>开始竞速</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="111"/>
        <source>Shape: %1 takes %2.</source>
        <translation>形状：%1 需要 %2。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="120"/>
        <source>Select a task in the explorer, or give an operator and its shape.</source>
        <translation>请在资源管理器中选择一个任务，或指定算子及其形状。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="127"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="132"/>
        <source>Choose two different policies.</source>
        <translation>请选择两个不同的策略。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="165"/>
        <source>New race…</source>
        <translation>新建竞速…</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="166"/>
        <source>Cancel race</source>
        <translation>取消竞速</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="169"/>
        <source>Stored races</source>
        <translation>已保存的竞速</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="171"/>
        <source>Replay</source>
        <translation>回放</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="172"/>
        <location filename="../app/gui/race_view.cpp" line="239"/>
        <location filename="../app/gui/race_view.cpp" line="271"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="184"/>
        <source>No race yet: start one (New race…) or replay a stored one.</source>
        <translation>尚无竞速：新建一个（新建竞速…）或回放已保存的竞速。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="191"/>
        <source>Trials</source>
        <translation>试验次数</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="192"/>
        <source>Best GFLOP/s</source>
        <translation>最佳 GFLOP/s</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="209"/>
        <source>Show best program</source>
        <translation>显示最佳程序</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="234"/>
        <location filename="../app/gui/race_view.cpp" line="326"/>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="275"/>
        <source>Race: %1</source>
        <translation>竞速：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="299"/>
        <source>Starting the race…</source>
        <translation>正在开始竞速…</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="349"/>
        <source>Done.</source>
        <translation>完成。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="351"/>
        <source>Waiting for its turn: rounds alternate, so that each measures alone.</source>
        <translation>等待轮到自己：双方轮流进行，以保证每轮测量独占机器。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="353"/>
        <source>Measuring configs of the template: each is compiled and timed; its GFLOP/s goes back to the tuner.</source>
        <translation>正在测量模板的配置：每个配置都会编译并计时，其 GFLOP/s 反馈给调优器。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="355"/>
        <source>Measuring the programs the evolutionary search ranked best (and a few random ones).</source>
        <translation>正在测量进化搜索排名最佳的程序（以及少量随机程序）。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="357"/>
        <source>Updating the cost model with the measured programs.</source>
        <translation>正在用已测量的程序更新代价模型。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="360"/>
        <source>Searching: random tile sizes and annotations of the sketches, evolved over generations and ranked by the cost model; nobody wrote this search space by hand.</source>
        <translation>搜索中：对草图随机选取分块大小和注解，经多代进化并由代价模型排序；这个搜索空间无需任何人手写。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="363"/>
        <source>Searching: drawing random programs from the sketches (no model).</source>
        <translation>搜索中：从草图中随机抽取程序（不使用模型）。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="365"/>
        <source>Searching: simulated annealing walks the template&apos;s configs under the XGBoost model, refit every 64 measurements; the plan&apos;s last 5% are random configs.</source>
        <translation>搜索中：在 XGBoost 模型指导下用模拟退火遍历模板的配置，每 64 次测量重新拟合一次；计划中最后 5% 为随机配置。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="368"/>
        <source>Searching: a new generation of configs from roulette selection, single-point crossover and mutation of knob values.</source>
        <translation>搜索中：通过轮盘赌选择、单点交叉和旋钮取值变异生成新一代配置。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="371"/>
        <source>Searching: drawing configs of the template uniformly, never the same twice.</source>
        <translation>搜索中：均匀抽取模板的配置，不会重复。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="373"/>
        <source>Searching: taking the template&apos;s configs in index order.</source>
        <translation>搜索中：按索引顺序依次选取模板的配置。</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="391"/>
        <source>The race failed: %1</source>
        <translation>竞速失败：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="393"/>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 trials per policy, seed %3 — %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：每个策略 %2 次试验，种子 %3 — %4</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="397"/>
        <source>racing</source>
        <translation>竞速中</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="398"/>
        <source>replay from the workspace</source>
        <translation>从工作区回放</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="399"/>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="425"/>
        <source>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;%2&lt;/b&gt;&lt;/span&gt; — %3&lt;br&gt;%4 trials, best &lt;b&gt;%5&lt;/b&gt; GFLOP/s, %6 failed&lt;br&gt;&lt;i&gt;%7&lt;/i&gt;&lt;br&gt;&lt;small&gt;%8&lt;/small&gt;</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;%2&lt;/b&gt;&lt;/span&gt; — %3&lt;br&gt;%4 次试验，最佳 &lt;b&gt;%5&lt;/b&gt; GFLOP/s，%6 次失败&lt;br&gt;&lt;i&gt;%7&lt;/i&gt;&lt;br&gt;&lt;small&gt;%8&lt;/small&gt;</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="442"/>
        <source>%1 reached %2&apos;s best (%3 GFLOP/s): %4&lt;br&gt;</source>
        <translation>%1 达到 %2 的最佳值（%3 GFLOP/s）：%4&lt;br&gt;</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="445"/>
        <source>after %1 trials</source>
        <translation>用了 %1 次试验</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="445"/>
        <source>not within the budget</source>
        <translation>未在预算内达到</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="477"/>
        <source>Cannot show the program: %1</source>
        <translation>无法显示程序：%1</translation>
    </message>
</context>
<context>
    <name>ts::app::RecordsView</name>
    <message>
        <location filename="../app/gui/records_view.cpp" line="40"/>
        <source>Failures only</source>
        <translation>仅显示失败</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="44"/>
        <source>Export repro…</source>
        <translation>导出复现包…</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="45"/>
        <source>Measure again as manual</source>
        <translation>作为手动记录重新测量</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="46"/>
        <source>Add to search (seed)</source>
        <translation>加入搜索（种子）</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="51"/>
        <source>Filter by task, status or message</source>
        <translation>按任务、状态或消息筛选</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="54"/>
        <source>Show the records of all sessions or of one</source>
        <translation>显示所有会话或某一个会话的记录</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="55"/>
        <source>Show only the records whose measurement failed</source>
        <translation>只显示测量失败的记录</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="74"/>
        <source>Write the selected record&apos;s steps, TVM log line, loop IR and a re-measure script to a folder</source>
        <translation>将所选记录的步骤、TVM 日志行、循环 IR 和重新测量脚本写入一个文件夹</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="141"/>
        <source>Refused: %1: %2</source>
        <translation>已拒绝：%1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="142"/>
        <source>Done: %1 (record %2)</source>
        <translation>完成：%1（记录 %2）</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="143"/>
        <source>Done: %1</source>
        <translation>完成：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="170"/>
        <source>All sessions</source>
        <translation>所有会话</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="175"/>
        <source>Session %1 (%2, %3)</source>
        <translation>会话 %1（%2，%3）</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="216"/>
        <source>Record %1 was imported: its task is not rebuilt here.</source>
        <translation>记录 %1 是导入的：此处不会重建其任务。</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="239"/>
        <source>The task of record %1 cannot be rebuilt.</source>
        <translation>无法重建记录 %1 的任务。</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="246"/>
        <source>Record %1 does not replay: %2</source>
        <translation>记录 %1 无法重放：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="281"/>
        <source>No workspace</source>
        <translation>无工作区</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="283"/>
        <source>Loading records…</source>
        <translation>正在加载记录…</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="285"/>
        <source>%L1 records, %L2 loaded</source>
        <translation>共 %L1 条记录，已加载 %L2 条</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="287"/>
        <source>%L1 records</source>
        <translation>共 %L1 条记录</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="289"/>
        <source>, %L1 shown</source>
        <translation>，显示 %L1 条</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="302"/>
        <source>Export repro of record %1 into</source>
        <translation>将记录 %1 的复现包导出到</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="321"/>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="326"/>
        <source>Repro of record %1 written to %2</source>
        <translation>记录 %1 的复现包已写入 %2</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="327"/>
        <source>Repro of record %1 written to %2 (%3)</source>
        <translation>记录 %1 的复现包已写入 %2（%3）</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="342"/>
        <source>Select a record first.</source>
        <translation>请先选择一条记录。</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="346"/>
        <source>No session is running: start or resume one that tunes this record&apos;s task.</source>
        <translation>没有正在运行的会话：请启动或恢复一个调优该记录所属任务的会话。</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="354"/>
        <source>Record %1&apos;s task (%2) is not one of the running session&apos;s tasks.</source>
        <translation>记录 %1 的任务（%2）不在正在运行的会话的任务中。</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="366"/>
        <source>Measure this record&apos;s state again now, in the running session, as a manual record (its own marker in the views)</source>
        <translation>现在在运行中的会话里将该记录的状态作为手动记录重新测量（在各视图中有单独标记）</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="370"/>
        <source>Put this record&apos;s state into the initial population of every later round of its task</source>
        <translation>将该记录的状态加入其任务之后每一轮的初始种群</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="387"/>
        <source>Record %1&apos;s steps do not read: %2</source>
        <translation>无法读取记录 %1 的步骤：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="396"/>
        <source>Record %1 sent to the session as a seed…</source>
        <translation>记录 %1 已作为种子发送给会话…</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="397"/>
        <source>Record %1 sent to the session to measure…</source>
        <translation>记录 %1 已发送给会话进行测量…</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="398"/>
        <source>Refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
</context>
<context>
    <name>ts::app::RooflineView</name>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="81"/>
        <location filename="../app/gui/roofline_view.cpp" line="181"/>
        <source>Measure machine</source>
        <translation>测量本机</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="82"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="93"/>
        <source>Measure this machine&apos;s FMA peak per thread count, its memory bandwidth (triad) and caches, and keep them in the workspace</source>
        <translation>测量本机在各线程数下的 FMA 峰值、内存带宽（triad）和缓存，并保存到工作区</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="118"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="154"/>
        <source>Cannot read the workspace: %1</source>
        <translation>无法读取工作区：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="164"/>
        <source>L2 %1</source>
        <translation>L2 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="166"/>
        <source>L3 %1</source>
        <translation>L3 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="167"/>
        <source>DRAM %1</source>
        <translation>DRAM %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/roofline_view.cpp" line="168"/>
        <source>%1: FMA peak %2 GFLOP/s on %n thread(s); %3 GB/s; caches L1d %4 KiB, L2 %5 KiB, L3 %6 MiB</source>
        <translation>
            <numerusform>%1：%n 个线程时 FMA 峰值 %2 GFLOP/s；%3 GB/s；缓存 L1d %4 KiB、L2 %5 KiB、L3 %6 MiB</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="177"/>
        <source>Measure again</source>
        <translation>重新测量</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="179"/>
        <source>No machine profile in this workspace yet: measure this machine&apos;s limits to draw the roofs (about 10 s).</source>
        <translation>该工作区中还没有机器性能档案：测量本机的性能上限以绘制屋顶线（约 10 秒）。</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="188"/>
        <source>Select a task to see its records against the roofs.</source>
        <translation>选择一个任务，以查看其记录相对于屋顶线的位置。</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="190"/>
        <source>%1 has no successful record on this machine yet.</source>
        <translation>%1 在本机上还没有成功的记录。</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/roofline_view.cpp" line="194"/>
        <source>%1: %n record(s); the best reaches %2 GFLOP/s at %3 FLOP/byte, %4% of its roof (%5) and %6% of the FMA peak.</source>
        <translation>
            <numerusform>%1：%n 条记录；最佳记录在 %3 FLOP/byte 时达到 %2 GFLOP/s，为其屋顶线（%5）的 %4%，FMA 峰值的 %6%。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="201"/>
        <source>memory-bound, its data in %1</source>
        <translation>访存受限，数据位于 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="203"/>
        <source>compute-bound</source>
        <translation>计算受限</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/roofline_view.cpp" line="206"/>
        <source>%1: %n record(s); the best reaches %2 GFLOP/s at %3 FLOP/byte.</source>
        <translation>
            <numerusform>%1：%n 条记录；最佳记录在 %3 FLOP/byte 时达到 %2 GFLOP/s。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="221"/>
        <source>no workspace is open</source>
        <translation>没有打开的工作区</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="245"/>
        <source>Measuring the machine failed: %1</source>
        <translation>测量本机失败：%1</translation>
    </message>
</context>
<context>
    <name>ts::app::ScheduleEditor</name>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="68"/>
        <source>Edit a Copy of the Selection</source>
        <translation>编辑所选状态的副本</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="69"/>
        <source>Open the selected state&apos;s steps (a record, a sketch&apos;s sample, the best) in this editor</source>
        <translation>在此编辑器中打开所选状态的步骤（一条记录、一个草图采样或最佳结果）</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="72"/>
        <source>Measure</source>
        <translation>测量</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="73"/>
        <source>Add to Search</source>
        <translation>加入搜索</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="87"/>
        <source>Select a state (a record, a sketch&apos;s sample, the best) and use Edit a Copy: its steps appear here as TVM JSON, one step per line, to edit.</source>
        <translation>选择一个状态（一条记录、一个草图采样或最佳结果）并使用“编辑副本”：其步骤会以 TVM JSON 格式显示在这里，每行一步，可直接编辑。</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="108"/>
        <source>Right-click a loop to split, vectorize, parallelize or unroll it, or to compute another stage at it</source>
        <translation>右键点击循环可将其拆分、向量化、并行化或展开，或将另一个阶段 compute_at 到该循环</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="112"/>
        <source>Loop nest</source>
        <translation>循环嵌套</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="113"/>
        <source>Loop IR</source>
        <translation>循环 IR</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="114"/>
        <source>As calls</source>
        <translation>调用形式</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="157"/>
        <source>A copy of %1. Edits replay as you type; the original is unchanged.</source>
        <translation>%1 的副本。编辑内容随输入实时重放；原状态保持不变。</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="160"/>
        <source>computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="238"/>
        <source>Could not replay: %1</source>
        <translation>无法重放：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="266"/>
        <source>No loop IR: %1</source>
        <translation>无循环 IR：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="275"/>
        <source>No score: %1</source>
        <translation>无得分：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="277"/>
        <source>Score of the %1 model (%2): %3, the sum over %4 stages (higher is better).</source>
        <translation>%1 模型（%2）的得分：%3，为 %4 个阶段之和（越高越好）。</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="282"/>
        <source>Estimated time of the %1 model (%2): %3 µs, the sum over %4 stages.</source>
        <translation>%1 模型（%2）的估计耗时：%3 µs，为 %4 个阶段之和。</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="287"/>
        <source>(Not the session&apos;s own model: %1.)</source>
        <translation>（并非该会话自己的模型：%1。）</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="299"/>
        <source>Line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="301"/>
        <source>Step %1 (line %2): %3</source>
        <translation>第 %1 步（第 %2 行）：%3</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="303"/>
        <source>Step %1 (line %2), field %3 (%4): %5</source>
        <translation>第 %1 步（第 %2 行），字段 %3（%4）：%5</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="308"/>
        <source>The panes show the last steps that replayed.</source>
        <translation>各窗格显示的是最后一次成功重放的步骤。</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="364"/>
        <source>Open a state in the editor first (Edit a Copy).</source>
        <translation>请先在编辑器中打开一个状态（编辑副本）。</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="366"/>
        <source>No tuning session is running: start one to measure this state in it or seed its search.</source>
        <translation>没有正在运行的调优会话：请启动一个会话，以便在其中测量该状态或将其作为搜索种子。</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="368"/>
        <source>The running session does not tune this task.</source>
        <translation>正在运行的会话不调优此任务。</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="370"/>
        <source>The steps in the editor have not replayed (yet).</source>
        <translation>编辑器中的步骤（尚未）重放成功。</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="374"/>
        <source>Measure these steps now in the running session (between two batches), stored as a manual record</source>
        <translation>立即在运行中的会话里测量这些步骤（在两个批次之间），并保存为手动记录</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="377"/>
        <source>Put these steps into the task&apos;s initial population in every later round</source>
        <translation>将这些步骤加入该任务之后每一轮的初始种群</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="387"/>
        <source>Not measured: %1</source>
        <translation>未测量：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="391"/>
        <source>Measuring: the session measures these steps between two batches…</source>
        <translation>测量中：会话将在两个批次之间测量这些步骤…</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="401"/>
        <source>Not added: %1</source>
        <translation>未添加：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="405"/>
        <source>Adding to the search: the session takes it between two batches…</source>
        <translation>正在加入搜索：会话将在两个批次之间接收它…</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="414"/>
        <source>Refused (%1): %2</source>
        <translation>已拒绝（%1）：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="416"/>
        <source>Measured: record %1 (%2).</source>
        <translation>已测量：记录 %1（%2）。</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="418"/>
        <source>Done: %1.</source>
        <translation>完成：%1。</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="437"/>
        <source>Right-click a loop to split, annotate or compute a stage at it</source>
        <translation>右键点击循环可拆分、添加注解或将某个阶段 compute_at 到该循环</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="442"/>
        <source>The steps in the editor have not replayed: fix or wait for them first</source>
        <translation>编辑器中的步骤尚未重放成功：请先修正或等待</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="448"/>
        <source>Loop %1 of %2</source>
        <translation>%2 的循环 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="450"/>
        <source>Split by…</source>
        <translation>拆分…</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="455"/>
        <source>Split a Loop</source>
        <translation>拆分循环</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="456"/>
        <source>Length of the inner loop (the loop has %1 iterations):</source>
        <translation>内层循环长度（该循环共 %1 次迭代）：</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="457"/>
        <source>Length of the inner loop:</source>
        <translation>内层循环长度：</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="469"/>
        <source>Vectorize</source>
        <translation>向量化</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="470"/>
        <source>Parallel</source>
        <translation>并行</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="470"/>
        <source>Unroll</source>
        <translation>展开</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="477"/>
        <source>The loop is already annotated %1</source>
        <translation>该循环已标注为 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="481"/>
        <source>Compute at This Loop</source>
        <translation>Compute at 到此循环</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="495"/>
        <source>Compute %1 Here</source>
        <translation>将 %1 计算于此</translation>
    </message>
</context>
<context>
    <name>ts::app::SchedulerView</name>
    <message>
        <location filename="../app/gui/scheduler_view.cpp" line="48"/>
        <source>Share (%)</source>
        <translation>占比 (%)</translation>
    </message>
    <message>
        <location filename="../app/gui/scheduler_view.cpp" line="51"/>
        <source>trials spent</source>
        <translation>已用试验次数</translation>
    </message>
    <message>
        <location filename="../app/gui/scheduler_view.cpp" line="55"/>
        <source>weighted latency</source>
        <translation>加权延迟</translation>
    </message>
    <message>
        <location filename="../app/gui/scheduler_view.cpp" line="104"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>ts::app::SessionDialog</name>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="62"/>
        <source>New tuning session</source>
        <translation>新建调优会话</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="66"/>
        <source>What to tune</source>
        <translation>调优对象</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="67"/>
        <source>&amp;Network</source>
        <translation>网络(&amp;N)</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="68"/>
        <source>&amp;Operator</source>
        <translation>算子(&amp;O)</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="77"/>
        <source>all tasks, or ids such as 0,3,5</source>
        <translation>全部任务，或如 0,3,5 的任务编号</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="84"/>
        <source>Network:</source>
        <translation>网络：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="85"/>
        <source>Batch:</source>
        <translation>批大小：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="86"/>
        <source>Tasks:</source>
        <translation>任务：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="88"/>
        <source>Operator:</source>
        <translation>算子：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="89"/>
        <source>Shape:</source>
        <translation>形状：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="90"/>
        <source>Layout:</source>
        <translation>布局：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="93"/>
        <source>Shadow models</source>
        <translation>影子模型</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="107"/>
        <source>Scored on every round&apos;s candidates, without steering; compared in Predicted vs measured.</source>
        <translation>为每轮候选打分但不引导搜索；在“预测值 vs 实测值”中对比。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="116"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="124"/>
        <source>AutoTVM policies tune the tasks one of its hand-written templates fits; the cost model below is Ansor&apos;s and is not used by them.</source>
        <translation>AutoTVM 策略只调优有合适手写模板的任务；下面的代价模型属于 Ansor，AutoTVM 策略不使用它。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="129"/>
        <source>Rank the model&apos;s warm-up by the analytical estimate</source>
        <translation>预热阶段按解析估计排序</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="130"/>
        <source>Until a learned model has trained (every task&apos;s first round), Ansor ranks the candidates at random; TuneScope ranks them by the roofline estimate, with the machine&apos;s measured limits when the Roofline view has measured them.</source>
        <translation>在学习型模型完成训练之前（即每个任务的第一轮），Ansor 随机为候选排序；TuneScope 则按 roofline 估计排序，若 Roofline 视图已测量过本机上限，则使用实测值。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="136"/>
        <source>This machine&apos;s CPU (%1)</source>
        <translation>本机 CPU（%1）</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="139"/>
        <source>A CUDA target (or any TVM target string) searches with Ansor&apos;s GPU rules; its candidates are measured by tunescope-gpu-runner on this machine&apos;s GPU, or on a GPU elsewhere through the folder under Measurement.</source>
        <translation>CUDA 目标（或任何 TVM target 字符串）使用 Ansor 的 GPU 规则搜索；其候选由 tunescope-gpu-runner 在本机 GPU 上测量，或通过“测量”下的文件夹在其他机器的 GPU 上测量。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="146"/>
        <source>all cores (%1)</source>
        <translation>全部核心（%1）</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="148"/>
        <source>Policy:</source>
        <translation>策略：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="149"/>
        <source>Cost model:</source>
        <translation>代价模型：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="151"/>
        <source>Target:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="152"/>
        <source>Trials (all sessions of these tasks):</source>
        <translation>试验次数（这些任务的所有会话合计）：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="153"/>
        <source>Measures per round:</source>
        <translation>每轮测量数：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="154"/>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="155"/>
        <source>Threads:</source>
        <translation>线程数：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="158"/>
        <source>Measurement</source>
        <translation>测量</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="162"/>
        <source>Flush caches before each repeat</source>
        <translation>每次重复前刷新缓存</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="165"/>
        <source>as TVM (2 for a network, 1 for an operator)</source>
        <translation>同 TVM（网络为 2，算子为 1）</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="166"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="167"/>
        <source>weights packed in the kernel (1)</source>
        <translation>在内核中打包权重 (1)</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="168"/>
        <source>weights packed before the runs (2)</source>
        <translation>在运行前打包权重 (2)</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="170"/>
        <source>Ansor&apos;s layout_rewrite_option (CPU targets): a conv2d&apos;s, dense&apos;s, matmul&apos;s or batch_matmul&apos;s weight packed into the layout the schedule&apos;s loops read, inside the timed kernel (1, TVM&apos;s default for an operator) or once before the timed runs (2, as a network&apos;s constant weights are). As TVM: 2 for a network&apos;s tasks, 1 for an operator, none for AutoTVM policies and GPU targets.</source>
        <translation>Ansor 的 layout_rewrite_option（CPU 目标）：将 conv2d、dense、matmul 或 batch_matmul 的权重打包成调度中循环读取的布局，可以在计时的内核内部进行（1，TVM 对单个算子的默认值），也可以在计时运行之前一次性完成（2，与网络中的常量权重一样）。与 TVM 相同：网络的任务用 2，单个算子用 1，AutoTVM 策略和 GPU 目标不使用。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="178"/>
        <location filename="../app/gui/session_dialog.cpp" line="182"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="184"/>
        <source>empty: this machine&apos;s GPU</source>
        <translation>留空：使用本机 GPU</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="186"/>
        <source>GPU targets measured on another machine: each batch is written to this folder as batch-PID-K.jsonl; run it there with tunescope-gpu-runner and move the output here as batch-PID-K.results.jsonl. The session waits for it (Stop ends the wait).</source>
        <translation>在另一台机器上测量的 GPU 目标：每个批次以 batch-PID-K.jsonl 写入该文件夹；在那台机器上用 tunescope-gpu-runner 运行它，再将输出以 batch-PID-K.results.jsonl 移回此处。会话会等待结果（“停止”可结束等待）。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="190"/>
        <source>Number:</source>
        <translation>number（次数）：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="191"/>
        <source>Repeat:</source>
        <translation>repeat（重复）：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="192"/>
        <source>min_repeat_ms:</source>
        <translation>min_repeat_ms：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="194"/>
        <source>Layout rewrite:</source>
        <translation>布局重写：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="195"/>
        <source>Build timeout:</source>
        <translation>构建超时：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="196"/>
        <source>Run timeout:</source>
        <translation>运行超时：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="197"/>
        <source>GPU elsewhere, through:</source>
        <translation>其他机器的 GPU，经由：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="200"/>
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="201"/>
        <source>Workers (PostgreSQL workspace)</source>
        <translation>工作进程（PostgreSQL 工作区）</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="202"/>
        <source>Workers: each batch is queued in the workspace and measured by tunescope-worker processes on any machine (docs/workers.md); needs a postgresql:// workspace.</source>
        <translation>工作进程：每批候选放入工作区队列，由任意机器上的 tunescope-worker 进程测量（docs/workers.md）；需要 postgresql:// 工作区。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="204"/>
        <source>Measure on:</source>
        <translation>测量位置：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="208"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="210"/>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="211"/>
        <source>TuneScope workspaces (*.tunescope);;All files (*)</source>
        <translation>TuneScope 工作区 (*.tunescope);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="216"/>
        <source>Workspace:</source>
        <translation>工作区：</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="224"/>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="266"/>
        <source>Extra cost models, trained on the same records as the session&apos;s model: each scores every round&apos;s candidates without steering the search, and the Predicted vs measured view draws each one&apos;s pairwise accuracy and Spearman per round.</source>
        <translation>额外的代价模型，与会话模型在相同的记录上训练：每个模型为每轮候选打分但不引导搜索，“预测值 vs 实测值”视图按轮绘制各模型的成对准确率和 Spearman 系数。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="269"/>
        <source>Shadow models score the candidates the session&apos;s model ranks; the %1 policy does not rank with the session&apos;s model (Ansor only).</source>
        <translation>影子模型为会话模型排序的候选打分；%1 策略不使用会话模型排序（仅 Ansor 支持）。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="356"/>
        <source>Target: %1</source>
        <translation>目标：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="359"/>
        <source>Policy: AutoTVM&apos;s templates here are CPU templates; tune a GPU target with Ansor or random sampling.</source>
        <translation>策略：这里的 AutoTVM 模板是 CPU 模板；GPU 目标请用 Ansor 或随机采样调优。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="363"/>
        <source>Measurement: workers measure a PostgreSQL workspace&apos;s queue; give a postgresql:// workspace, or measure on this machine.</source>
        <translation>测量：工作进程测量 PostgreSQL 工作区的队列；请指定 postgresql:// 工作区，或在本机测量。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="367"/>
        <source>Measurement: a folder for a GPU elsewhere needs a GPU target.</source>
        <translation>测量：用于其他机器 GPU 的文件夹需要 GPU 目标。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="369"/>
        <source>Measurement: cannot make the folder %1.</source>
        <translation>测量：无法创建文件夹 %1。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="373"/>
        <source>Tasks: give task ids separated by commas (such as 0,3,5), or nothing for all tasks.</source>
        <translation>任务：请给出以逗号分隔的任务编号（如 0,3,5），留空表示全部任务。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="377"/>
        <source>Shape: %1 takes %2.</source>
        <translation>形状：%1 需要 %2。</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="385"/>
        <source>Policy: %1</source>
        <translation>策略：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="388"/>
        <source>Choose a workspace file.</source>
        <translation>请选择工作区文件。</translation>
    </message>
</context>
<context>
    <name>ts::app::SessionsView</name>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="33"/>
        <source>Workers</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="46"/>
        <source>Resume session</source>
        <translation>恢复会话</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="48"/>
        <source>Continue the selected session with its tasks and settings, up to the trial budget</source>
        <translation>以所选会话的任务和设置继续调优，直到达到试验预算</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="50"/>
        <source>Show live session</source>
        <translation>显示运行中的会话</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="56"/>
        <source>its budget</source>
        <translation>其原预算</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="57"/>
        <source>to </source>
        <translation>至 </translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="58"/>
        <source> trials</source>
        <translation> 次试验</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="59"/>
        <source>The budget when resuming (all sessions of the tasks together)</source>
        <translation>恢复时的预算（这些任务的所有会话合计）</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="88"/>
        <source>tunescope-worker processes measuring this workspace&apos;s queue, on any machine</source>
        <translation>在任意机器上测量本工作区队列的 tunescope-worker 进程</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="121"/>
        <source>Workspace: %1</source>
        <translation>工作区：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="157"/>
        <source>Workers (%1)</source>
        <translation>工作进程（%1）</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="159"/>
        <source>Workers: %1</source>
        <translation>工作进程：%1</translation>
    </message>
</context>
<context>
    <name>ts::app::SketchView</name>
    <message>
        <location filename="../app/gui/sketch_view.cpp" line="56"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../app/gui/sketch_view.cpp" line="60"/>
        <source>Show all the session&apos;s tasks, or one</source>
        <translation>显示会话的全部任务或其中一个</translation>
    </message>
    <message>
        <location filename="../app/gui/sketch_view.cpp" line="138"/>
        <source>All tasks</source>
        <translation>全部任务</translation>
    </message>
    <message>
        <location filename="../app/gui/sketch_view.cpp" line="175"/>
        <source>Cannot read the session: %1</source>
        <translation>无法读取会话：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/sketch_view.cpp" line="179"/>
        <source>No session: start or open one to see its sketches.</source>
        <translation>没有会话：启动或打开一个会话以查看其草图。</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sketch_view.cpp" line="189"/>
        <source>%n measured state(s)</source>
        <translation>
            <numerusform>%n 个已测量状态</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sketch_view.cpp" line="191"/>
        <source>, %n matching no sketch</source>
        <translation>
            <numerusform>，其中 %n 个不匹配任何草图</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/sketch_view.cpp" line="207"/>
        <source> · constraints: %1 of %2 sketches allowed</source>
        <translation> · 约束：%2 个草图中允许 %1 个</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sketch_view.cpp" line="209"/>
        <source>, %n measured state(s) break them</source>
        <translation>
            <numerusform>，%n 个已测量状态违反约束</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ts::app::SteeringView</name>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="69"/>
        <source>&amp;Undo steering</source>
        <translation>撤销引导(&amp;U)</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="70"/>
        <source>&amp;Redo steering</source>
        <translation>重做引导(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="71"/>
        <source>Add constraint…</source>
        <translation>添加约束…</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="72"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="73"/>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="74"/>
        <source>Save constraints…</source>
        <translation>保存约束…</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="75"/>
        <source>Load constraints…</source>
        <translation>加载约束…</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="80"/>
        <source>Make the previous steering entry the one in effect (a manual record stays in the store)</source>
        <translation>让上一条引导条目重新生效（手动记录仍保留在存储中）</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="84"/>
        <source>Apply the undone steering entry again</source>
        <translation>重新应用已撤销的引导条目</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="86"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="87"/>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="90"/>
        <source>Bound a split factor, the unroll limit, the vector length or the parallel extent, or forbid or require a sketch rule, for the selected task</source>
        <translation>为所选任务限制拆分因子、展开上限、向量长度或并行范围，或者禁止/要求某条草图规则</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="92"/>
        <source>Take the selected constraint off the task</source>
        <translation>从任务中移除所选约束</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="93"/>
        <source>Take every constraint off the task</source>
        <translation>移除任务的全部约束</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="94"/>
        <source>Write every task&apos;s constraints to a file that tunescope-cli tune --constraints and Load constraints… read</source>
        <translation>将所有任务的约束写入文件，供 tunescope-cli tune --constraints 和“加载约束…”读取</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="96"/>
        <source>Set the constraints of the tasks a constraints file names</source>
        <translation>按约束文件设置其中列出的任务的约束</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="105"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="105"/>
        <location filename="../app/gui/steering_view.cpp" line="350"/>
        <source>Constraints</source>
        <translation>约束</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="105"/>
        <source>Seeds</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>Manual records</source>
        <translation type="vanished">手动记录</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="105"/>
        <source>In population</source>
        <translation>在种群中</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="105"/>
        <source>Manual</source>
        <translation>手动</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="106"/>
        <source>The session&apos;s manual records of the task (undone ones too)</source>
        <translation>会话中该任务的手动记录（包括已撤销的）</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="108"/>
        <source>Manual states in the task&apos;s population now (undo takes them out; their records stay)</source>
        <translation>当前任务种群中的手动状态（撤销会将其移出；其记录仍保留）</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="121"/>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="123"/>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="141"/>
        <source>undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="146"/>
        <source>redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="160"/>
        <source>Save the constraints</source>
        <translation>保存约束</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="160"/>
        <location filename="../app/gui/steering_view.cpp" line="166"/>
        <source>Constraints (*.json);;All files (*)</source>
        <translation>约束 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="166"/>
        <source>Load constraints</source>
        <translation>加载约束</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="283"/>
        <source>%1. %2 — undone</source>
        <translation>%1. %2 — 已撤销</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="283"/>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="289"/>
        <source>In effect now</source>
        <translation>当前生效</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="290"/>
        <source>Undone: Redo applies it again; a new command drops it</source>
        <translation>已撤销：“重做”可重新应用；执行新命令则将其丢弃</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="323"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="351"/>
        <source>Constraints of task %1 (%2), waiting for the session</source>
        <translation>任务 %1（%2）的约束，等待会话处理</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="354"/>
        <source>Constraints of task %1 (%2)</source>
        <translation>任务 %1（%2）的约束</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="369"/>
        <source>(none: the search may propose any state)</source>
        <translation>（无：搜索可以提出任何状态）</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="399"/>
        <source>Applying: %1</source>
        <translation>正在应用：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="400"/>
        <source>Waiting for the batch in flight to end: %1</source>
        <translation>等待当前批次结束：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="404"/>
        <source>Session %1 runs: what you change here applies between two batches, at once while it is paused.</source>
        <translation>会话 %1 正在运行：此处的更改在两个批次之间生效；会话暂停时立即生效。</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="407"/>
        <source>Session %1 is not running: its steering as stored. Resume it (Sessions) or start one to steer.</source>
        <translation>会话 %1 未在运行：显示的是已保存的引导。恢复它（会话列表）或启动新会话以进行引导。</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="410"/>
        <source>No session: start one (Session &gt; New session…) to steer it.</source>
        <translation>没有会话：启动一个会话（会话 &gt; 新建会话…）以进行引导。</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="425"/>
        <location filename="../app/gui/steering_view.cpp" line="465"/>
        <source>Refused: %1: %2</source>
        <translation>已拒绝：%1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="427"/>
        <source>Done: %1 (record %2)</source>
        <translation>完成：%1（记录 %2）</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="429"/>
        <source>Done: %1</source>
        <translation>完成：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="442"/>
        <source>task %1 (%2)</source>
        <translation>任务 %1（%2）</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="449"/>
        <source>The constraint was not added: another session is shown now.</source>
        <translation>约束未添加：当前显示的是另一个会话。</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="490"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="494"/>
        <source>Constraints saved to %1</source>
        <translation>约束已保存到 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="505"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="515"/>
        <source>Cannot load constraints: task %1&apos;s DAG cannot be rebuilt.</source>
        <translation>无法加载约束：无法重建任务 %1 的 DAG。</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="524"/>
        <source>Cannot load %1: %2</source>
        <translation>无法加载 %1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="538"/>
        <source>%1 changes no task&apos;s constraints.</source>
        <translation>%1 未改变任何任务的约束。</translation>
    </message>
</context>
<context>
    <name>ts::app::SweepView</name>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="65"/>
        <source>Parameter:</source>
        <translation>参数：</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="69"/>
        <source>A split length or the unroll limit of the selected state; its legal values are measured with the rest of the state fixed</source>
        <translation>所选状态的一个 split 长度或展开上限；其余部分不变，测量它的每个合法取值</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="72"/>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="73"/>
        <source>Measure every legal value of the parameter on this machine (in the runner process) and score it with the checked cost models; the points are stored in the workspace</source>
        <translation>在本机（runner 进程中）测量该参数的每个合法取值，并用勾选的代价模型打分；各点存入工作区</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="75"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="76"/>
        <source>Stop the measurement in flight; the values measured so far are kept</source>
        <translation>停止正在进行的测量；已测的取值保留</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="90"/>
        <source>Predict with:</source>
        <translation>预测模型：</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="91"/>
        <source>Each model first learns from the task&apos;s records in the workspace (those measured with the same layout rewrite); scores are its own scale, not GFLOP/s</source>
        <translation>每个模型先从工作区中该任务的记录（布局重写相同的记录）学习；分数是模型自己的尺度，不是 GFLOP/s</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="134"/>
        <source>No sweep yet.</source>
        <translation>尚未扫描。</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="179"/>
        <source>Select a schedule state (a record, a trial, a sketch&apos;s state) to sweep one of its parameters.</source>
        <translation>请选择一个调度状态（记录、试验或草图的状态），以扫描它的一个参数。</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="185"/>
        <source>%1: listing the parameters…</source>
        <translation>%1：正在列出参数…</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="214"/>
        <source>%1, record %2</source>
        <translation>%1，记录 %2</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="214"/>
        <source>%1, selected state</source>
        <translation>%1，所选状态</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="216"/>
        <source>%1: cannot sweep: %2</source>
        <translation>%1：无法扫描：%2</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sweep_view.cpp" line="226"/>
        <source>%1 — %n value(s)</source>
        <translation>
            <numerusform>%1 — %n 个取值</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="229"/>
        <source>Candidate values: %1 (those whose state replays are measured)</source>
        <translation>候选取值：%1（状态能重放的才会测量）</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="239"/>
        <source>%1: nothing to sweep (no split with all its lengths chosen, no unroll limit).</source>
        <translation>%1：没有可扫描的参数（没有长度全部确定的 split，也没有展开上限）。</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sweep_view.cpp" line="241"/>
        <source>%1: %n parameter(s). Sweeps measure on this machine (%2), layout rewrite %3.</source>
        <translation>
            <numerusform>%1：%n 个参数。扫描在本机（%2）测量，布局重写 %3。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="287"/>
        <source>%1 of %2</source>
        <translation>%2 的 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="289"/>
        <source>%1 record %2</source>
        <translation>%1 记录 %2</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="290"/>
        <source>Sweeping %1</source>
        <translation>正在扫描 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="365"/>
        <source>Cancelling: the value being measured is stopped; those measured are kept…</source>
        <translation>正在取消：停止正在测量的取值；已测的保留…</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="376"/>
        <source>%1 is learning from the task&apos;s records…</source>
        <translation>%1 正在从该任务的记录学习…</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="380"/>
        <source>%1 of %2 measured</source>
        <translation>已测 %1 / %2</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="382"/>
        <source>Measuring on this machine, one value at a time in the runner…</source>
        <translation>正在本机测量，在 runner 中逐个取值…</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="396"/>
        <source>Sweep failed: %1</source>
        <translation>扫描失败：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="397"/>
        <source>The sweep failed: %1</source>
        <translation>扫描失败：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="403"/>
        <source>Swept %1</source>
        <translation>已扫描 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="405"/>
        <source>Cancelled: %1 of %2 values measured (kept).</source>
        <translation>已取消：已测 %2 个取值中的 %1 个（已保留）。</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="406"/>
        <source>%1 of %2 values measured.</source>
        <translation>已测 %2 个取值中的 %1 个。</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="416"/>
        <source>Fastest: %1 at %2 GFLOP/s.</source>
        <translation>最快：%1，%2 GFLOP/s。</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="420"/>
        <source>The state&apos;s own value %1: %2 GFLOP/s.</source>
        <translation>状态自身的取值 %1：%2 GFLOP/s。</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sweep_view.cpp" line="422"/>
        <source>%n failed (hover the crosses for why).</source>
        <translation>
            <numerusform>%n 个失败（悬停在叉号上查看原因）。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="432"/>
        <source>Stored as record %1.</source>
        <translation>已存为记录 %1。</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="433"/>
        <source>Stored as records %1–%2.</source>
        <translation>已存为记录 %1–%2。</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="438"/>
        <source>%1 had nothing to learn from (random scores)</source>
        <translation>%1 没有可学习的记录（随机分数）</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sweep_view.cpp" line="440"/>
        <source>%1 learned from %n record(s) of the task</source>
        <translation>
            <numerusform>%1 从该任务的 %n 条记录学习</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="444"/>
        <source>Models: %1.</source>
        <translation>模型：%1。</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="465"/>
        <source>Cannot select record %1: %2</source>
        <translation>无法选择记录 %1：%2</translation>
    </message>
</context>
<context>
    <name>ts::app::TaskDagView</name>
    <message>
        <location filename="../app/gui/task_dag_view.cpp" line="22"/>
        <source>Select a task in the explorer to see its compute DAG.</source>
        <translation>在资源管理器中选择一个任务以查看其计算 DAG。</translation>
    </message>
    <message>
        <location filename="../app/gui/task_dag_view.cpp" line="27"/>
        <source>%1 — task %2: %3</source>
        <translation>%1 — 任务 %2：%3</translation>
    </message>
    <message>
        <location filename="../app/gui/task_dag_view.cpp" line="28"/>
        <source>task %1: %2</source>
        <translation>任务 %1：%2</translation>
    </message>
</context>
<context>
    <name>ts::app::TaskDetailsView</name>
    <message>
        <location filename="../app/gui/task_details_view.cpp" line="30"/>
        <source>Schedule:</source>
        <translation>调度：</translation>
    </message>
</context>
<context>
    <name>ts::models::NetworkTaskModel</name>
    <message>
        <location filename="../widgets/models/network_task_model.cpp" line="218"/>
        <source>Network / task</source>
        <translation>网络 / 任务</translation>
    </message>
    <message>
        <location filename="../widgets/models/network_task_model.cpp" line="220"/>
        <source>GFLOP</source>
        <translation>GFLOP</translation>
    </message>
    <message>
        <location filename="../widgets/models/network_task_model.cpp" line="222"/>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
</context>
<context>
    <name>ts::models::RecordsModel</name>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="15"/>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="16"/>
        <source>instantiation error</source>
        <translation>实例化错误</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="17"/>
        <source>compile error</source>
        <translation>编译错误</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="18"/>
        <source>device compile error</source>
        <translation>设备编译错误</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="19"/>
        <source>runtime error</source>
        <translation>运行时错误</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="20"/>
        <source>wrong answer</source>
        <translation>结果错误</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="21"/>
        <source>build timeout</source>
        <translation>构建超时</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="22"/>
        <source>run timeout</source>
        <translation>运行超时</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="23"/>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="165"/>
        <source>Records of %1 could not be read: %2</source>
        <translation>无法读取 %1 的记录：%2</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="218"/>
        <source>task %1</source>
        <translation>任务 %1</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="307"/>
        <source>import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="335"/>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="337"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="339"/>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="341"/>
        <source>Cost (µs)</source>
        <translation>耗时 (µs)</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="343"/>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="345"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="347"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="349"/>
        <source>Predicted</source>
        <translation>预测值</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="351"/>
        <source>Batch rank</source>
        <translation>批内排名</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="353"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
</context>
<context>
    <name>ts::models::SchedulerModel</name>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="47"/>
        <source>dead</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="49"/>
        <source>no best yet</source>
        <translation>尚无最佳</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="49"/>
        <source>+inf</source>
        <translation>+inf</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="83"/>
        <source>dead: %1</source>
        <translation>已停止：%1</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="83"/>
        <source>tuning</source>
        <translation>调优中</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="127"/>
        <source>The scheduler&apos;s gradient before its last choice: the expected change of the network&apos;s latency per trial of this task (more negative: more to gain).</source>
        <translation>调度器在最近一次选择前的梯度：该任务每多一次试验，网络延迟的预期变化（越负，收益越大）。</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="141"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="143"/>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="145"/>
        <source>Trials (session)</source>
        <translation>试验次数（本会话）</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="147"/>
        <source>Trials (all)</source>
        <translation>试验次数（全部）</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="149"/>
        <source>Best (µs)</source>
        <translation>最佳 (µs)</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="151"/>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="153"/>
        <source>Share of latency (%)</source>
        <translation>延迟占比 (%)</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="155"/>
        <source>Gradient</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="157"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>ts::models::SessionsModel</name>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="95"/>
        <source>%1 (live)</source>
        <translation>%1（运行中）</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="97"/>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="111"/>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="113"/>
        <source>Tuned</source>
        <translation>调优对象</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="115"/>
        <source>Policy</source>
        <translation>策略</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="117"/>
        <source>Cost model</source>
        <translation>代价模型</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="119"/>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="121"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="123"/>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
</context>
<context>
    <name>ts::models::SketchTreeModel</name>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="294"/>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="296"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="327"/>
        <source>no sketches</source>
        <translation>无草图</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/models/sketch_tree_model.cpp" line="328"/>
        <source>%n sketch(es), %1 measured</source>
        <translation>
            <numerusform>%n 个草图，已测量 %1 个</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="346"/>
        <source>Other (no sketch matches)</source>
        <translation>其他（不匹配任何草图）</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="347"/>
        <source>Sketch %1: %2</source>
        <translation>草图 %1：%2</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/models/sketch_tree_model.cpp" line="354"/>
        <source>%n measured</source>
        <translation>
            <numerusform>已测量 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="355"/>
        <source>%1, %2 failed</source>
        <translation>%1，%2 个失败</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="365"/>
        <source>Records whose steps match none of the task&apos;s sketches (imported, or tuned with other rules or for another target)</source>
        <translation>步骤不匹配该任务任何草图的记录（导入的，或用其他规则、为其他目标调优的）</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="377"/>
        <source>Trial %1</source>
        <translation>试验 %1</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="383"/>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="395"/>
        <source>Record %1</source>
        <translation>记录 %1</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="399"/>
        <source>Not replayed: %1</source>
        <translation>未重放：%1</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="411"/>
        <source>Task / sketch / state</source>
        <translation>任务 / 草图 / 状态</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="413"/>
        <source>Cost</source>
        <translation>耗时</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="415"/>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="417"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="419"/>
        <source>Tile sizes</source>
        <translation>分块大小</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="421"/>
        <source>Compute at</source>
        <translation>Compute at</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="423"/>
        <source>Parallel, vectorize, unroll</source>
        <translation>并行、向量化、展开</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="425"/>
        <source>Constraints</source>
        <translation>约束</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_marks.cpp" line="83"/>
        <source>%1 of %2 sketches allowed</source>
        <translation>%2 个草图中允许 %1 个</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/models/sketch_tree_marks.cpp" line="84"/>
        <source>%1; %n measured state(s) break the constraints</source>
        <translation>
            <numerusform>%1；%n 个已测量状态违反约束</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_marks.cpp" line="93"/>
        <source>removed: %1</source>
        <translation>已移除：%1</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_marks.cpp" line="96"/>
        <source>allowed</source>
        <translation>允许</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_marks.cpp" line="115"/>
        <source>Removed by the task&apos;s constraints: it %1. The search samples no state of this sketch.</source>
        <translation>被任务的约束移除：%1。搜索不会采样此草图的任何状态。</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_marks.cpp" line="120"/>
        <source>Breaks the task&apos;s constraints: %1. The search would not propose it now.</source>
        <translation>违反任务的约束：%1。搜索现在不会提出它。</translation>
    </message>
</context>
<context>
    <name>ts::models::WorkersModel</name>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="59"/>
        <source>Worker %1 (pid %2, %3 threads)</source>
        <translation>工作进程 %1（PID %2，%3 个线程）</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="78"/>
        <source>%1 s ago</source>
        <translation>%1 秒前</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="90"/>
        <source>Worker</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="92"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="94"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="96"/>
        <source>Measuring now</source>
        <translation>正在测量</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="98"/>
        <source>Measured</source>
        <translation>已测量</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="100"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="102"/>
        <source>Per minute</source>
        <translation>每分钟</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="104"/>
        <source>Last seen</source>
        <translation>最近一次</translation>
    </message>
</context>
<context>
    <name>ts::widgets::DagView</name>
    <message>
        <location filename="../widgets/dag_view.cpp" line="91"/>
        <source>Schedule:</source>
        <translation>调度：</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="92"/>
        <source>What the selected schedule does to each op</source>
        <translation>所选调度对每个算子做了什么</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="149"/>
        <source>inline</source>
        <translation>内联</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="151"/>
        <source>tile</source>
        <translation>分块</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="153"/>
        <source>cache</source>
        <translation>缓存</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="155"/>
        <source>compute_at</source>
        <translation>compute_at</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="157"/>
        <source>parallel</source>
        <translation>并行</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="159"/>
        <source>vectorize</source>
        <translation>向量化</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="161"/>
        <source>unroll</source>
        <translation>展开</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="163"/>
        <source>rfactor</source>
        <translation>rfactor</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="211"/>
        <source>schedule: %1</source>
        <translation>调度：%1</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="269"/>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="272"/>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="275"/>
        <source>&amp;Fit DAG</source>
        <translation>适应 DAG 大小(&amp;F)</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="311"/>
        <source>input %1</source>
        <translation>输入 %1</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="329"/>
        <source>Layout failed: %1</source>
        <translation>布局失败：%1</translation>
    </message>
</context>
<context>
    <name>ts::widgets::ModelScatter</name>
    <message>
        <location filename="../widgets/model_scatter.cpp" line="16"/>
        <source>measured (best cost / cost)</source>
        <translation>实测（最佳耗时 / 耗时）</translation>
    </message>
    <message>
        <location filename="../widgets/model_scatter.cpp" line="17"/>
        <source>predicted (scaled)</source>
        <translation>预测（缩放后）</translation>
    </message>
</context>
<context>
    <name>ts::widgets::ModelSearchPlot</name>
    <message>
        <location filename="../widgets/model_scatter.cpp" line="53"/>
        <source>trials</source>
        <translation>试验次数</translation>
    </message>
    <message>
        <location filename="../widgets/model_scatter.cpp" line="54"/>
        <source>sum of best latency (ms)</source>
        <translation>最佳延迟之和 (ms)</translation>
    </message>
</context>
<context>
    <name>ts::widgets::NetworkRunPlot</name>
    <message>
        <location filename="../widgets/network_run_plot.cpp" line="20"/>
        <source>Time per run (ms)</source>
        <translation>每次运行时间 (ms)</translation>
    </message>
    <message>
        <location filename="../widgets/network_run_plot.cpp" line="21"/>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <location filename="../widgets/network_run_plot.cpp" line="24"/>
        <source>hot (each step timed again at once)</source>
        <translation>热（每步立即再计时一次）</translation>
    </message>
    <message>
        <location filename="../widgets/network_run_plot.cpp" line="27"/>
        <source>estimate (weight × record)</source>
        <translation>估计（权重 × 记录）</translation>
    </message>
    <message>
        <location filename="../widgets/network_run_plot.cpp" line="65"/>
        <source>#%1 %2 ×%3 · %4%</source>
        <translation>#%1 %2 ×%3 · %4%</translation>
    </message>
    <message>
        <location filename="../widgets/network_run_plot.cpp" line="73"/>
        <source>other steps (%1, not tasks) · %2%</source>
        <translation>其他步骤（%1，非任务）· %2%</translation>
    </message>
</context>
<context>
    <name>ts::widgets::PredictionScatter</name>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="21"/>
        <source>Predicted score</source>
        <translation>预测得分</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="22"/>
        <source>Measured GFLOP/s</source>
        <translation>实测 GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="35"/>
        <source>random pick (eps-greedy)</source>
        <translation>随机选取 (eps-greedy)</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="71"/>
        <source>round %1 (%2)</source>
        <translation>第 %1 轮（%2）</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="82"/>
        <source>manual</source>
        <translation>手动</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="145"/>
        <source>Record %1, trial %2, round %3</source>
        <translation>记录 %1，试验 %2，第 %3 轮</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="147"/>
        <source>Predicted %1, measured %2 GFLOP/s</source>
        <translation>预测 %1，实测 %2 GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="149"/>
        <source>A random pick (eps-greedy)</source>
        <translation>随机选取 (eps-greedy)</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="151"/>
        <source>A manual state (measured by hand)</source>
        <translation>手动状态（手动测量）</translation>
    </message>
</context>
<context>
    <name>ts::widgets::RaceRunner</name>
    <message>
        <location filename="../widgets/race_runner.cpp" line="28"/>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../widgets/race_runner.cpp" line="67"/>
        <source>A race is running; cancel it first.</source>
        <translation>竞速正在进行；请先取消。</translation>
    </message>
</context>
<context>
    <name>ts::widgets::RooflinePlot</name>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="21"/>
        <source>Arithmetic intensity (FLOP per byte of compulsory traffic)</source>
        <translation>算术强度（每字节必需访存量对应的 FLOP）</translation>
    </message>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="22"/>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/roofline_plot.cpp" line="90"/>
        <source>%n thread(s): %1 GFLOP/s, %2 GB/s</source>
        <translation>
            <numerusform>%n 个线程：%1 GFLOP/s，%2 GB/s</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="106"/>
        <source>%1: %2 GB/s</source>
        <translation>%1：%2 GB/s</translation>
    </message>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="113"/>
        <source>other tasks&apos; best</source>
        <translation>其他任务的最佳</translation>
    </message>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="117"/>
        <source>this task&apos;s records</source>
        <translation>本任务的记录</translation>
    </message>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="122"/>
        <source>its best</source>
        <translation>其最佳</translation>
    </message>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="157"/>
        <source>task %1, record %2: %3 GFLOP/s at %4 FLOP/byte</source>
        <translation>任务 %1，记录 %2：%4 FLOP/byte 时 %3 GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="165"/>
        <source>
%1% of the roof (%2 GFLOP/s, its data in %3), %4% of the FMA peak</source>
        <translation>
达到屋顶线的 %1%（%2 GFLOP/s，数据位于 %3），FMA 峰值的 %4%</translation>
    </message>
</context>
<context>
    <name>ts::widgets::SessionHub</name>
    <message>
        <location filename="../widgets/session_hub.cpp" line="95"/>
        <source>Cannot open the workspace %1: %2</source>
        <translation>无法打开工作区 %1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="129"/>
        <source>Cannot load session %1: %2</source>
        <translation>无法加载会话 %1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="176"/>
        <source>1 record measured with layout rewrite %1</source>
        <translation>1 条记录以布局重写 %1 测量</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="177"/>
        <source>%1 records measured with layout rewrite %2</source>
        <translation>%1 条记录以布局重写 %2 测量</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="180"/>
        <source>Not resumed: %1 of these tasks. They time another kernel; a session with that layout rewrite resumes them.</source>
        <translation>未恢复：这些任务中有 %1。它们计时的是另一种内核；使用该布局重写的会话才能恢复它们。</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="310"/>
        <source>Session %1 did not record what it tuned, so it cannot be resumed.</source>
        <translation>会话 %1 没有记录其调优对象，因此无法恢复。</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="317"/>
        <source>Session %1 cannot be resumed: %2</source>
        <translation>无法恢复会话 %1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="395"/>
        <source>No session is running, so there is no model to switch.</source>
        <translation>没有正在运行的会话，因此没有可切换的模型。</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="412"/>
        <source>Cannot switch the model to %1: %2</source>
        <translation>无法将模型切换为 %1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="440"/>
        <source>Cannot %1: %2</source>
        <translation>无法%1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="482"/>
        <source>The session failed: %1</source>
        <translation>会话失败：%1</translation>
    </message>
</context>
<context>
    <name>ts::widgets::ShadowMetricsPlot</name>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="31"/>
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="94"/>
        <source>%1 (session)</source>
        <translation>%1（会话）</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="105"/>
        <source>%1 (failed)</source>
        <translation>%1（失败）</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="113"/>
        <source>Spearman&apos;s rho</source>
        <translation>Spearman ρ</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="113"/>
        <source>Pairwise accuracy</source>
        <translation>成对准确率</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="148"/>
        <source>%1 (the session&apos;s model)</source>
        <translation>%1（会话的模型）</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="148"/>
        <source>%1 (shadow)</source>
        <translation>%1（影子）</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="149"/>
        <source>round %1, task %2</source>
        <translation>第 %1 轮，任务 %2</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="151"/>
        <source>Pairwise accuracy %1, Spearman %2 over %3 candidates</source>
        <translation>基于 %3 个候选：成对准确率 %1，Spearman %2</translation>
    </message>
</context>
<context>
    <name>ts::widgets::SweepPlot</name>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="25"/>
        <source>cannot score it</source>
        <translation>无法打分</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="46"/>
        <source>Measured GFLOP/s</source>
        <translation>实测 GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="47"/>
        <source>Prediction, 0–1 per model (not GFLOP/s)</source>
        <translation>预测，每个模型 0–1（不是 GFLOP/s）</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="52"/>
        <source>measured GFLOP/s</source>
        <translation>实测 GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="55"/>
        <source>failed (hover for why)</source>
        <translation>失败（悬停查看原因）</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="88"/>
        <source>Value of the parameter</source>
        <translation>参数取值</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="97"/>
        <source>Split length (log2 scale)</source>
        <translation>split 长度（log2 刻度）</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="97"/>
        <source>Unroll limit (auto_unroll_max_step)</source>
        <translation>展开上限（auto_unroll_max_step）</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="126"/>
        <source>the state&apos;s value (%1)</source>
        <translation>状态的取值（%1）</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="147"/>
        <source>%1 (predicted)</source>
        <translation>%1（预测）</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="176"/>
        <source>%1 (the state&apos;s value): </source>
        <translation>%1（状态的取值）：</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="176"/>
        <source>%1: </source>
        <translation>%1：</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="178"/>
        <source>%1 GFLOP/s, %2 ms</source>
        <translation>%1 GFLOP/s，%2 ms</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="180"/>
        <source>failed (%1): %2</source>
        <translation>失败（%1）：%2</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="184"/>
        <source>, record %1</source>
        <translation>，记录 %1</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="187"/>
        <source>%1 predicts %2</source>
        <translation>%1 预测 %2</translation>
    </message>
</context>
<context>
    <name>ts::widgets::TuningCurvePlot</name>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="62"/>
        <source>Best GFLOP/s</source>
        <translation>最佳 GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="63"/>
        <source>Latency (ms)</source>
        <translation>延迟 (ms)</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="87"/>
        <source>Wall time (h:mm:ss)</source>
        <translation>墙钟时间 (h:mm:ss)</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="92"/>
        <source>Trials (this session)</source>
        <translation>试验次数（本会话）</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="175"/>
        <source>→ %1</source>
        <translation>→ %1</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="254"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="304"/>
        <source>manual</source>
        <translation>手动</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="506"/>
        <source>Task %1: %2</source>
        <translation>任务 %1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="509"/>
        <source>Trial %1 (the task&apos;s %2)</source>
        <translation>试验 %1（该任务的第 %2 次）</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="510"/>
        <source>%1 GFLOP/s, %2 µs</source>
        <translation>%1 GFLOP/s，%2 µs</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="511"/>
        <source>Record %1</source>
        <translation>记录 %1</translation>
    </message>
</context>
</TS>

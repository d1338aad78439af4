<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>QObject</name>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="83"/>
        <source>%1 training and %2 test programs of %3; test: %4</source>
        <translation>%1 Trainings- und %2 Testprogramme aus %3; Test: %4</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="87"/>
        <source>the last 30% of each task&apos;s records</source>
        <translation>die letzten 30 % der Datensätze jeder Aufgabe</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="88"/>
        <source>held-out %1</source>
        <translation>zurückgehalten: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="102"/>
        <source>model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="102"/>
        <source>top-1</source>
        <translation>Top-1</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="102"/>
        <source>top-5</source>
        <translation>Top-5</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="102"/>
        <source>pairwise</source>
        <translation>paarweise</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="103"/>
        <source>RMSE</source>
        <translation>RMSE</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="103"/>
        <source>peak@1</source>
        <translation>Peak@1</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="103"/>
        <source>train s</source>
        <translation>Training s</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="103"/>
        <source>programs/s</source>
        <translation>Programme/s</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="104"/>
        <source>size KB</source>
        <translation>Größe KB</translation>
    </message>
</context>
<context>
    <name>ts::app::CodeView</name>
    <message>
        <location filename="../app/gui/code_view.cpp" line="54"/>
        <source>No %1: %2</source>
        <translation>%1 nicht verfügbar: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="88"/>
        <location filename="../app/gui/code_view.cpp" line="175"/>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="89"/>
        <source>Loop nest</source>
        <translation>Schleifennest</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="90"/>
        <location filename="../app/gui/code_view.cpp" line="176"/>
        <source>Loop IR</source>
        <translation>Loop-IR</translation>
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
        <translation>Assembler</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="93"/>
        <source>Step through</source>
        <translation>Schrittweise</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="94"/>
        <source>Diff</source>
        <translation>Diff</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="96"/>
        <source>Edit</source>
        <translation>Bearbeiten</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="98"/>
        <source>&amp;Pin for Diff</source>
        <translation>Für Diff an&amp;heften</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="99"/>
        <source>Keep the selected schedule state to compare other states with (Code view, Diff tab)</source>
        <translation>Den ausgewählten Schedule-Zustand behalten, um andere Zustände damit zu vergleichen (Codeansicht, Reiter Diff)</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="101"/>
        <source>Clear Diff Pin</source>
        <translation>Diff-Anheftung aufheben</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="103"/>
        <source>&amp;Edit a Copy</source>
        <translation>Kopie &amp;bearbeiten</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="104"/>
        <source>Edit a copy of the selected schedule state&apos;s steps (Code view, Edit tab): the loop nest, loop IR and model score follow as you type</source>
        <translation>Eine Kopie der Schritte des ausgewählten Schedule-Zustands bearbeiten (Codeansicht, Reiter Bearbeiten): Schleifennest, Loop-IR und Modell-Score folgen beim Tippen</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="140"/>
        <source>Back</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="141"/>
        <source>Undo the last step shown</source>
        <translation>Den zuletzt gezeigten Schritt rückgängig machen</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="145"/>
        <source>Forward</source>
        <translation>Vor</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="146"/>
        <source>Apply the next step</source>
        <translation>Den nächsten Schritt anwenden</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="174"/>
        <source>Compare:</source>
        <translation>Vergleichen:</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="268"/>
        <source>Select a task, then a schedule state (a trial, a record, a sketch) to see its code.</source>
        <translation>Wählen Sie eine Aufgabe und dann einen Schedule-Zustand (einen Versuch, einen Datensatz, einen Sketch), um seinen Code zu sehen.</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="272"/>
        <source>%1: select a schedule state (a trial, a record, a sketch) to see its code.</source>
        <translation>%1: Wählen Sie einen Schedule-Zustand (einen Versuch, einen Datensatz, einen Sketch), um seinen Code zu sehen.</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="278"/>
        <source>%1: a schedule of one step</source>
        <translation>%1: ein Schedule aus einem Schritt</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="279"/>
        <source>%1: a schedule of %2 steps</source>
        <translation>%1: ein Schedule aus %2 Schritten</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="281"/>
        <source>, record %1</source>
        <translation>, Datensatz %1</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="323"/>
        <source>(no steps: the default schedule)</source>
        <translation>(keine Schritte: der Standard-Schedule)</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="324"/>
        <location filename="../app/gui/code_view.cpp" line="521"/>
        <source>computing…</source>
        <translation>wird berechnet…</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="345"/>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="356"/>
        <source>loop nest</source>
        <translation>Schleifennest</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="358"/>
        <location filename="../app/gui/code_view.cpp" line="529"/>
        <source>loop IR</source>
        <translation>Loop-IR</translation>
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
        <translation>Assembler</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="368"/>
        <source>No per-stage scores: %1</source>
        <translation>Keine Scores pro Stufe: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="370"/>
        <source>Per-stage scores (higher is better) of the %1 model, %2.</source>
        <translation>Scores pro Stufe (höher ist besser) des Modells %1, %2.</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="373"/>
        <source>Per-stage estimated time in µs of the %1 model, %2.</source>
        <translation>Geschätzte Zeit pro Stufe in µs des Modells %1, %2.</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="376"/>
        <source>(Not the session&apos;s own model: %1.)</source>
        <translation>(Nicht das eigene Modell der Sitzung: %1.)</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="407"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="408"/>
        <source>%1 / %2   +%3 −%4 lines</source>
        <translation>%1 / %2   +%3 −%4 Zeilen</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="409"/>
        <source>Lines the step added (highlighted) and removed</source>
        <translation>Vom Schritt hinzugefügte (hervorgehoben) und entfernte Zeilen</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="410"/>
        <source>The initial state: one loop nest per op, no step applied yet.</source>
        <translation>Der Anfangszustand: ein Schleifennest pro Operation, noch kein Schritt angewendet.</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="411"/>
        <source>Step %1: %2</source>
        <translation>Schritt %1: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="415"/>
        <source>This prefix of the steps does not replay: %1</source>
        <translation>Dieses Präfix der Schritte lässt sich nicht anwenden: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="503"/>
        <source>No state is pinned: select a state, use Pin for Diff, then select another state.</source>
        <translation>Kein Zustand angeheftet: Wählen Sie einen Zustand, verwenden Sie „Für Diff anheften“ und wählen Sie dann einen anderen Zustand.</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="508"/>
        <source>Pinned: %1. Select a state to compare with it.</source>
        <translation>Angeheftet: %1. Wählen Sie einen Zustand zum Vergleich aus.</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="520"/>
        <source>Pinned: %1.</source>
        <translation>Angeheftet: %1.</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="529"/>
        <source>steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="531"/>
        <source>Pinned: %1. The selected state has the same %2.</source>
        <translation>Angeheftet: %1. Der ausgewählte Zustand hat identische %2.</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="532"/>
        <source>No differences.</source>
        <translation>Keine Unterschiede.</translation>
    </message>
    <message>
        <location filename="../app/gui/code_view.cpp" line="534"/>
        <source>The %1 of the pinned state (−, %2) and of the selected one (+, %3).</source>
        <translation>%1 des angehefteten Zustands (−, %2) und des ausgewählten (+, %3).</translation>
    </message>
</context>
<context>
    <name>ts::app::ConstraintDialog</name>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="21"/>
        <source>innermost tile</source>
        <translation>innerste Kachel</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="22"/>
        <source>second innermost</source>
        <translation>zweitinnerste</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="23"/>
        <source>third innermost</source>
        <translation>drittinnerste</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="24"/>
        <source>outermost</source>
        <translation>äußerste</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="25"/>
        <source>second outermost</source>
        <translation>zweitäußerste</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="56"/>
        <source>Add a constraint to %1</source>
        <translation>Einschränkung zu %1 hinzufügen</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="66"/>
        <source>split factor</source>
        <translation>Split-Faktor</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="67"/>
        <source>unroll limit</source>
        <translation>Unroll-Grenze</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="68"/>
        <source>vector length</source>
        <translation>Vektorlänge</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="69"/>
        <source>parallel extent</source>
        <translation>parallele Ausdehnung</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="70"/>
        <source>sketch rule</source>
        <translation>Sketch-Regel</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="75"/>
        <source>equals</source>
        <translation>gleich</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="76"/>
        <source>at least</source>
        <translation>mindestens</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="77"/>
        <source>at most</source>
        <translation>höchstens</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="78"/>
        <source>one of</source>
        <translation>eines von</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="79"/>
        <source>a number; for &quot;one of&quot;: 0, 16, 64</source>
        <translation>eine Zahl; für „eines von“: 0, 16, 64</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="80"/>
        <source>forbid</source>
        <translation>verbieten</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="81"/>
        <source>require</source>
        <translation>verlangen</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="100"/>
        <source>Task:</source>
        <translation>Aufgabe:</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="101"/>
        <source>Kind:</source>
        <translation>Art:</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="102"/>
        <source>Split:</source>
        <translation>Split:</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="103"/>
        <source>Bound:</source>
        <translation>Grenze:</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="104"/>
        <source>Sketch rule:</source>
        <translation>Sketch-Regel:</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="152"/>
        <source>%1.%2 has extent %3. A split of it can pin its %4 to one of its divisors: %5.</source>
        <translation>%1.%2 hat die Ausdehnung %3. Ein Split davon kann seine %4 auf einen ihrer Teiler festlegen: %5.</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="160"/>
        <source>Bounds every auto_unroll_max_step the search picks (Ansor picks among 0, 16, 64 and 512 on a CPU).</source>
        <translation>Begrenzt jedes auto_unroll_max_step, das die Suche wählt (Ansor wählt auf einer CPU zwischen 0, 16, 64 und 512).</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="163"/>
        <source>Bounds the extent of every vectorised loop.</source>
        <translation>Begrenzt die Ausdehnung jeder vektorisierten Schleife.</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="166"/>
        <source>Bounds, per stage, the product of its parallel loops&apos; extents: the work the threads share.</source>
        <translation>Begrenzt je Stufe das Produkt der Ausdehnungen ihrer parallelen Schleifen: die Arbeit, die sich die Threads teilen.</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="169"/>
        <source>Sketches that break the rule are not sampled at all.</source>
        <translation>Sketches, die die Regel verletzen, werden gar nicht gesampelt.</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="183"/>
        <source>&quot;%1&quot; is not a whole number</source>
        <translation>„%1“ ist keine ganze Zahl</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="188"/>
        <source>give a value for the bound</source>
        <translation>Geben Sie einen Wert für die Grenze an</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="190"/>
        <source>one value, or choose &quot;one of&quot; for a list</source>
        <translation>ein Wert, oder wählen Sie „eines von“ für eine Liste</translation>
    </message>
    <message>
        <location filename="../app/gui/constraint_dialog.cpp" line="220"/>
        <source>the task has no loop to split</source>
        <translation>die Aufgabe hat keine Schleife zum Splitten</translation>
    </message>
</context>
<context>
    <name>ts::app::CurvesView</name>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="23"/>
        <source>Against wall time</source>
        <translation>Über verstrichener Zeit</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="24"/>
        <source>Compare with…</source>
        <translation>Vergleichen mit…</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="28"/>
        <source>Tuning curves against wall time instead of trials</source>
        <translation>Tuning-Kurven über der verstrichenen Zeit statt über den Versuchen</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="32"/>
        <source>Overlay other sessions of the workspace on the tuning curves</source>
        <translation>Andere Sitzungen des Arbeitsbereichs über die Tuning-Kurven legen</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="81"/>
        <source>measured %1 ms (Run network; estimate %2 ms)</source>
        <translation>gemessen %1 ms (Netz ausführen; Schätzung %2 ms)</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="84"/>
        <source>measured %1 ms (Run network; %2 of %3 tasks tuned)</source>
        <translation>gemessen %1 ms (Netz ausführen; %2 von %3 Aufgaben getunt)</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="118"/>
        <source>#%1 %2 + %3, seed %4 (%5)</source>
        <translation>#%1 %2 + %3, Seed %4 (%5)</translation>
    </message>
    <message>
        <location filename="../app/gui/curves_view.cpp" line="130"/>
        <source>No other session in this workspace</source>
        <translation>Keine andere Sitzung in diesem Arbeitsbereich</translation>
    </message>
</context>
<context>
    <name>ts::app::ExplorerView</name>
    <message>
        <location filename="../app/gui/explorer_view.cpp" line="26"/>
        <source>Loading networks…</source>
        <translation>Netze werden geladen…</translation>
    </message>
    <message>
        <location filename="../app/gui/explorer_view.cpp" line="36"/>
        <source>Batch</source>
        <translation>Batchgröße</translation>
    </message>
    <message>
        <location filename="../app/gui/explorer_view.cpp" line="37"/>
        <source>Layout</source>
        <translation>Layout</translation>
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
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="62"/>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="63"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="27"/>
        <source>Explorer</source>
        <translation>Explorer</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="32"/>
        <source>Sketches</source>
        <translation>Sketches</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="35"/>
        <source>Sessions</source>
        <translation>Sitzungen</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="37"/>
        <source>Compute DAG</source>
        <translation>Berechnungsgraph</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="41"/>
        <source>Task details</source>
        <translation>Aufgabendetails</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="46"/>
        <source>Tuning curves</source>
        <translation>Tuning-Kurven</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="48"/>
        <source>Predicted vs measured</source>
        <translation>Vorhersage vs. Messung</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="50"/>
        <source>Task scheduler</source>
        <translation>Aufgaben-Scheduler</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="52"/>
        <source>Network run</source>
        <translation>Netzlauf</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="55"/>
        <source>Race</source>
        <translation>Rennen</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="58"/>
        <source>Sweep</source>
        <translation>Sweep</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="61"/>
        <source>Steering</source>
        <translation>Lenkung</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="64"/>
        <source>Model comparison</source>
        <translation>Modellvergleich</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="67"/>
        <source>Roofline</source>
        <translation>Roofline</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="70"/>
        <source>Code</source>
        <translation>Code</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="72"/>
        <source>Records</source>
        <translation>Datensätze</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="64"/>
        <source>&amp;Session</source>
        <translation>&amp;Sitzung</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="79"/>
        <source>A tuning session is running</source>
        <translation>Eine Tuning-Sitzung läuft</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="80"/>
        <source>Stop the session after the batch in flight and close? Everything measured so far is kept in the workspace, and the session can be resumed later.</source>
        <translation>Die Sitzung nach dem laufenden Batch beenden und schließen? Alle bisherigen Messungen bleiben im Arbeitsbereich erhalten, und die Sitzung kann später fortgesetzt werden.</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="150"/>
        <source>&amp;Open workspace…</source>
        <translation>Arbeitsbereich ö&amp;ffnen…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="153"/>
        <location filename="../app/gui/main_window.cpp" line="167"/>
        <source>A session is running in this workspace: cancel it before opening another.</source>
        <translation>In diesem Arbeitsbereich läuft eine Sitzung: Brechen Sie sie ab, bevor Sie einen anderen öffnen.</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="157"/>
        <source>Open or create a workspace</source>
        <translation>Arbeitsbereich öffnen oder anlegen</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="158"/>
        <source>TuneScope workspaces (*.tunescope);;All files (*)</source>
        <translation>TuneScope-Arbeitsbereiche (*.tunescope);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="164"/>
        <source>Open &amp;server workspace…</source>
        <translation>&amp;Server-Arbeitsbereich öffnen…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="171"/>
        <source>Open a server workspace</source>
        <translation>Server-Arbeitsbereich öffnen</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="172"/>
        <source>PostgreSQL URL (the password from ~/.pgpass or PGPASSFILE, never stored here):</source>
        <translation>PostgreSQL-URL (das Passwort aus ~/.pgpass oder PGPASSFILE, hier nie gespeichert):</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="178"/>
        <source>Not a PostgreSQL URL: %1</source>
        <translation>Keine PostgreSQL-URL: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="184"/>
        <source>Open &amp;model (ONNX)…</source>
        <translation>&amp;Modell öffnen (ONNX)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="186"/>
        <source>Open an ONNX model</source>
        <translation>Ein ONNX-Modell öffnen</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="186"/>
        <source>ONNX models (*.onnx);;All files (*)</source>
        <translation>ONNX-Modelle (*.onnx);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="191"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="195"/>
        <source>View</source>
        <translation>Ansicht</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="208"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="209"/>
        <source>&amp;About TuneScope</source>
        <translation>Über &amp;TuneScope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="210"/>
        <source>About TuneScope</source>
        <translation>Über TuneScope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="211"/>
        <source>TuneScope %1
A workbench for tuning tensor programs.</source>
        <translation>TuneScope %1
Eine Werkbank zum Optimieren von Tensorprogrammen.</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="217"/>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="227"/>
        <source>&amp;New session…</source>
        <translation>&amp;Neue Sitzung…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="229"/>
        <source>&amp;Pause</source>
        <translation>&amp;Pausieren</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="230"/>
        <source>&amp;Resume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="231"/>
        <source>&amp;Cancel after this batch</source>
        <translation>Nach diesem Batch a&amp;bbrechen</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="241"/>
        <source> Model: </source>
        <translation> Modell: </translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="244"/>
        <source>The running session&apos;s cost model. Choose another to switch: it learns from every record of the session&apos;s tasks, then ranks the following rounds.</source>
        <translation>Das Kostenmodell der laufenden Sitzung. Ein anderes wählen, um zu wechseln: Es lernt aus jedem Datensatz der Aufgaben der Sitzung und bewertet dann die folgenden Runden.</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="258"/>
        <source>Switching the cost model to %1 before the next round…</source>
        <translation>Wechsle das Kostenmodell vor der nächsten Runde zu %1…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="268"/>
        <source>The session now ranks with %1 (was %2).</source>
        <translation>Die Sitzung bewertet jetzt mit %1 (vorher %2).</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="269"/>
        <source>The session keeps %1: switching to %2 failed: %3</source>
        <translation>Die Sitzung behält %1: Der Wechsel zu %2 ist fehlgeschlagen: %3</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="285"/>
        <source>Steering refused: %1: %2</source>
        <translation>Lenkung abgelehnt: %1: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="286"/>
        <source>Steering done: %1 (record %2)</source>
        <translation>Lenkung ausgeführt: %1 (Datensatz %2)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="287"/>
        <source>Steering done: %1</source>
        <translation>Lenkung ausgeführt: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="334"/>
        <source>%1 of %2 trials</source>
        <translation>%1 von %2 Versuchen</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="338"/>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="339"/>
        <source>cancelling after the batch in flight…</source>
        <translation>Abbruch nach dem laufenden Batch…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="340"/>
        <source>starting: restoring the workspace…</source>
        <translation>Start: Arbeitsbereich wird wiederhergestellt…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="342"/>
        <source>measuring %1: built %2, measured %3 of %4</source>
        <translation>Messung %1: %2 gebaut, %3 von %4 gemessen</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="348"/>
        <source>searching %1</source>
        <translation>Suche für %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="351"/>
        <source>updating the cost model</source>
        <translation>Kostenmodell wird aktualisiert</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="353"/>
        <source>training the new cost model on the session&apos;s records</source>
        <translation>trainiere das neue Kostenmodell mit den Datensätzen der Sitzung</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="355"/>
        <source>re-measuring the best candidates</source>
        <translation>beste Kandidaten werden neu gemessen</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="357"/>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="360"/>
        <source> — ETA %1</source>
        <translation> — Restzeit %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="361"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="361"/>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="369"/>
        <source>Session %1 %2.</source>
        <translation>Sitzung %1: %2.</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="370"/>
        <source>Session %1 %2: %3</source>
        <translation>Sitzung %1: %2 (%3)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="384"/>
        <source>TuneScope — %1</source>
        <translation>TuneScope — %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="392"/>
        <source>Importing %1…</source>
        <translation>%1 wird importiert…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="445"/>
        <source>%1task %2: %3 ops, %4 GFLOP, weight %5, key %6</source>
        <translation>%1Aufgabe %2: %3 Operationen, %4 GFLOP, Gewicht %5, Schlüssel %6</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="476"/>
        <source>Closing after the batch in flight…</source>
        <translation>Wird nach dem laufenden Batch geschlossen…</translation>
    </message>
</context>
<context>
    <name>ts::app::ModelComparisonView</name>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="116"/>
        <source>Compare</source>
        <translation>Vergleichen</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="117"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="132"/>
        <source>Cost model kinds, comma-separated (tunescope-cli compare-models --models)</source>
        <translation>Kostenmodell-Arten, durch Kommas getrennt (tunescope-cli compare-models --models)</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="133"/>
        <source>the open workspace</source>
        <translation>der geöffnete Arbeitsbereich</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="134"/>
        <source>A workspace holding a dataset (&apos;tunescope-cli collect&apos; makes one)</source>
        <translation>Ein Arbeitsbereich mit einem Datensatz (&apos;tunescope-cli collect&apos; erstellt einen)</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="135"/>
        <source>none: the last 30% of each task&apos;s records</source>
        <translation>keine: die letzten 30 % der Datensätze jeder Aufgabe</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="136"/>
        <source>Networks whose tasks are the test set, e.g. resnet-50,mobilenet-v2,bert-base</source>
        <translation>Netze, deren Aufgaben die Testmenge bilden, z. B. resnet-50,mobilenet-v2,bert-base</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="147"/>
        <source>no search</source>
        <translation>keine Suche</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="148"/>
        <source> tasks</source>
        <translation> Aufgaben</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="149"/>
        <source>Then let each trained model guide an Ansor session on this many test tasks</source>
        <translation>Danach lässt jedes trainierte Modell eine Ansor-Sitzung auf so vielen Testaufgaben steuern</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="152"/>
        <source> trials each</source>
        <translation> Versuche je Aufgabe</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="159"/>
        <source>Models</source>
        <translation>Modelle</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="160"/>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="161"/>
        <source>Hold out</source>
        <translation>Zurückhalten</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="162"/>
        <source>Search</source>
        <translation>Suche</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="187"/>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="188"/>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="206"/>
        <source>No workspace is open; name a dataset.</source>
        <translation>Kein Arbeitsbereich geöffnet; geben Sie einen Datensatz an.</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="206"/>
        <source>Name a model.</source>
        <translation>Geben Sie ein Modell an.</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="214"/>
        <source>Loading the dataset...</source>
        <translation>Datensatz wird geladen...</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="221"/>
        <source>The comparison failed: %1</source>
        <translation>Der Vergleich ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="253"/>
        <source>failed: %1</source>
        <translation>fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/model_comparison_view.cpp" line="263"/>
        <source>%1 (pairwise %2)</source>
        <translation>%1 (paarweise %2)</translation>
    </message>
</context>
<context>
    <name>ts::app::NetworkRunView</name>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="28"/>
        <source>Run &amp;network</source>
        <translation>&amp;Netz ausführen</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="29"/>
        <source>beside LibTorch</source>
        <translation>neben LibTorch</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="30"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="38"/>
        <source>Run the shown session&apos;s network whole from the workspace&apos;s best records: every kernel built and checked, whole runs timed, beside Ansor&apos;s estimate</source>
        <translation>Das Netz der gezeigten Sitzung als Ganzes aus den besten Datensätzen des Arbeitsbereichs ausführen: jeder Kernel gebaut und geprüft, ganze Läufe gemessen, neben Ansors Schätzung</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="40"/>
        <source>Also run the network in LibTorch on the same weights and input, and compare</source>
        <translation>Das Netz zusätzlich in LibTorch mit denselben Gewichten und Eingaben ausführen und vergleichen</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="98"/>
        <source>building…</source>
        <translation>wird gebaut…</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="101"/>
        <source>Running %1 from the workspace&apos;s best records…</source>
        <translation>%1 läuft aus den besten Datensätzen des Arbeitsbereichs…</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="109"/>
        <source>The run of %1 failed: %2</source>
        <translation>Der Lauf von %1 ist fehlgeschlagen: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="130"/>
        <source>The network run was cancelled.</source>
        <translation>Der Netzlauf wurde abgebrochen.</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="132"/>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="143"/>
        <source>Show a network&apos;s session to run the network whole from its best records.</source>
        <translation>Zeigen Sie die Sitzung eines Netzes, um das Netz als Ganzes aus seinen besten Datensätzen auszuführen.</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="147"/>
        <source>%1 has not been run whole in this window yet: Run network builds every kernel from the workspace&apos;s best records, checks it and times whole runs.</source>
        <translation>%1 wurde in diesem Fenster noch nicht als Ganzes ausgeführt: „Netz ausführen“ baut jeden Kernel aus den besten Datensätzen des Arbeitsbereichs, prüft ihn und misst ganze Läufe.</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="152"/>
        <source>&lt;b&gt;%1 ms&lt;/b&gt; measured (median of %2 runs, p90 %3 ms) on %4, %5 kernels, all checked against the reference evaluator</source>
        <translation>&lt;b&gt;%1 ms&lt;/b&gt; gemessen (Median von %2 Läufen, p90 %3 ms) auf %4, %5 Kernel, alle gegen den Referenz-Auswerter geprüft</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="160"/>
        <source>; Ansor&apos;s estimate %1 ms, measured / estimate &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>; Ansors Schätzung %1 ms, gemessen / geschätzt &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="164"/>
        <source>; Ansor&apos;s estimate %1 ms for the %2 of %3 tasks tuned, which measured %4 ms of it (%5x); the others ran their default schedule</source>
        <translation>; Ansors Schätzung %1 ms für die %2 von %3 getunten Aufgaben, die davon %4 ms gemessen haben (%5x); die übrigen liefen mit ihrem Standard-Schedule</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="172"/>
        <source>; no task has a record on this machine, so every kernel ran its default schedule</source>
        <translation>; keine Aufgabe hat einen Datensatz auf dieser Maschine, daher lief jeder Kernel mit seinem Standard-Schedule</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="174"/>
        <source>&lt;br&gt;%1: %2 ms, outputs %3; TuneScope is &lt;b&gt;%4x&lt;/b&gt; its speed</source>
        <translation>&lt;br&gt;%1: %2 ms, Ausgaben %3; TuneScope hat das &lt;b&gt;%4-Fache&lt;/b&gt; seiner Geschwindigkeit</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="177"/>
        <source>equal</source>
        <translation>gleich</translation>
    </message>
    <message>
        <location filename="../app/gui/network_run_view.cpp" line="177"/>
        <source>DIFFERENT</source>
        <translation>VERSCHIEDEN</translation>
    </message>
</context>
<context>
    <name>ts::app::PredictionView</name>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="67"/>
        <source>How many of the latest rounds the scatter shows</source>
        <translation>Wie viele der letzten Runden das Streudiagramm zeigt</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="68"/>
        <source>Last &amp;rounds:</source>
        <translation>Letzte &amp;Runden:</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Round</source>
        <translation>Runde</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Points</source>
        <translation>Punkte</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Random</source>
        <translation>Zufällig</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Pairwise</source>
        <translation>Paarweise</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="72"/>
        <source>Spearman</source>
        <translation>Spearman</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="73"/>
        <source>Successful trials with a predicted score</source>
        <translation>Erfolgreiche Versuche mit vorhergesagtem Score</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="75"/>
        <source>The fraction of pairs of trials the model orders as they measured (0.5: chance)</source>
        <translation>Anteil der Versuchspaare, die das Modell so ordnet wie gemessen (0,5: Zufall)</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="77"/>
        <source>Rank correlation of predicted score and measured GFLOP/s (1: the same order)</source>
        <translation>Rangkorrelation von vorhergesagtem Score und gemessenen GFLOP/s (1: gleiche Reihenfolge)</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="87"/>
        <source>Pairwise accuracy</source>
        <translation>Paarweise Genauigkeit</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="88"/>
        <source>Spearman&apos;s rho</source>
        <translation>Spearmans Rho</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="89"/>
        <source>What the lines show per round: the fraction of candidate pairs a model put in the measured order (0.5: chance), or its rank correlation with the measured throughput (0: none)</source>
        <translation>Was die Linien je Runde zeigen: den Anteil der Kandidatenpaare, die ein Modell in die gemessene Reihenfolge gebracht hat (0,5: Zufall), oder seine Rangkorrelation mit dem gemessenen Durchsatz (0: keine)</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="92"/>
        <source>&amp;Metric:</source>
        <translation>&amp;Metrik:</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="94"/>
        <source>&lt;b&gt;Shadow models&lt;/b&gt;</source>
        <translation>&lt;b&gt;Schattenmodelle&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="95"/>
        <source>Extra cost models chosen for the session: each learns from the same records as the session&apos;s model and scores every round&apos;s candidates, without steering the search</source>
        <translation>Zusätzliche Kostenmodelle der Sitzung: Jedes lernt aus denselben Datensätzen wie das Modell der Sitzung und bewertet die Kandidaten jeder Runde, ohne die Suche zu lenken</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="97"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="97"/>
        <source>Rounds</source>
        <translation>Runden</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="97"/>
        <source>Mean pairwise</source>
        <translation>Mittel paarweise</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="97"/>
        <source>Mean Spearman</source>
        <translation>Mittel Spearman</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="99"/>
        <source>Rounds in the means: those with metrics and two or more successful measurements</source>
        <translation>Runden in den Mittelwerten: die mit Metriken und zwei oder mehr erfolgreichen Messungen</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="165"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="202"/>
        <source>%1 (session)</source>
        <translation>%1 (Sitzung)</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="204"/>
        <source>%1 (failed)</source>
        <translation>%1 (fehlgeschlagen)</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="209"/>
        <source>The session&apos;s model: its scores ranked the candidates</source>
        <translation>Das Modell der Sitzung: Seine Scores haben die Kandidaten gereiht</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="210"/>
        <source>A shadow model: it scored the candidates, without steering</source>
        <translation>Ein Schattenmodell: Es hat die Kandidaten bewertet, ohne zu lenken</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="242"/>
        <source>Record %1 is not in the shown session.</source>
        <translation>Datensatz %1 gehört nicht zur angezeigten Sitzung.</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="242"/>
        <source>Click a point to select its record.</source>
        <translation>Klicken Sie auf einen Punkt, um seinen Datensatz auszuwählen.</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="249"/>
        <source>Record %1, round %2:</source>
        <translation>Datensatz %1, Runde %2:</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="250"/>
        <source>predicted score %1</source>
        <translation>vorhergesagter Score %1</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="250"/>
        <source>no predicted score</source>
        <translation>kein vorhergesagter Score</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="252"/>
        <source>rank %1 of %2 in its batch</source>
        <translation>Rang %1 von %2 im Batch</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="254"/>
        <source>a random pick</source>
        <translation>eine Zufallsauswahl</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="256"/>
        <source>measured %1 GFLOP/s</source>
        <translation>gemessen %1 GFLOP/s</translation>
    </message>
    <message>
        <location filename="../app/gui/prediction_view.cpp" line="257"/>
        <source>failed: %1</source>
        <translation>fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>ts::app::RaceView</name>
    <message>
        <location filename="../app/gui/race_view.cpp" line="48"/>
        <source>New race</source>
        <translation>Neues Rennen</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="51"/>
        <source>Selected task: %1</source>
        <translation>Ausgewählte Aufgabe: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="52"/>
        <source>Selected task (none selected)</source>
        <translation>Ausgewählte Aufgabe (keine ausgewählt)</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="54"/>
        <source>Operator:</source>
        <translation>Operator:</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="74"/>
        <source>Policy 1:</source>
        <translation>Strategie 1:</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="75"/>
        <source>Policy 2:</source>
        <translation>Strategie 2:</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="79"/>
        <source>Trials per policy:</source>
        <translation>Versuche je Strategie:</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="83"/>
        <source>Measures per round:</source>
        <translation>Messungen je Runde:</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="87"/>
        <source>Seed:</source>
        <translation>Startwert:</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="93"/>
        <source>Start race</source>
        <translation>Rennen starten</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="111"/>
        <source>Shape: %1 takes %2.</source>
        <translation>Form: %1 erwartet %2.</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="120"/>
        <source>Select a task in the explorer, or give an operator and its shape.</source>
        <translation>Wählen Sie eine Aufgabe im Explorer oder geben Sie einen Operator und seine Form an.</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="127"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="132"/>
        <source>Choose two different policies.</source>
        <translation>Wählen Sie zwei verschiedene Strategien.</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="165"/>
        <source>New race…</source>
        <translation>Neues Rennen…</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="166"/>
        <source>Cancel race</source>
        <translation>Rennen abbrechen</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="169"/>
        <source>Stored races</source>
        <translation>Gespeicherte Rennen</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="171"/>
        <source>Replay</source>
        <translation>Wiedergeben</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="172"/>
        <location filename="../app/gui/race_view.cpp" line="239"/>
        <location filename="../app/gui/race_view.cpp" line="271"/>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="184"/>
        <source>No race yet: start one (New race…) or replay a stored one.</source>
        <translation>Noch kein Rennen: starten Sie eines (Neues Rennen…) oder geben Sie ein gespeichertes wieder.</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="191"/>
        <source>Trials</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="192"/>
        <source>Best GFLOP/s</source>
        <translation>Beste GFLOP/s</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="209"/>
        <source>Show best program</source>
        <translation>Bestes Programm zeigen</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="234"/>
        <location filename="../app/gui/race_view.cpp" line="326"/>
        <source>Play</source>
        <translation>Abspielen</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="275"/>
        <source>Race: %1</source>
        <translation>Rennen: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="299"/>
        <source>Starting the race…</source>
        <translation>Das Rennen startet…</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="349"/>
        <source>Done.</source>
        <translation>Fertig.</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="351"/>
        <source>Waiting for its turn: rounds alternate, so that each measures alone.</source>
        <translation>Wartet, bis es an der Reihe ist: Die Runden wechseln sich ab, damit jede allein misst.</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="353"/>
        <source>Measuring configs of the template: each is compiled and timed; its GFLOP/s goes back to the tuner.</source>
        <translation>Misst Konfigurationen der Vorlage: Jede wird kompiliert und gemessen; ihre GFLOP/s gehen an den Tuner zurück.</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="355"/>
        <source>Measuring the programs the evolutionary search ranked best (and a few random ones).</source>
        <translation>Misst die Programme, die die evolutionäre Suche am besten bewertet hat (und einige zufällige).</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="357"/>
        <source>Updating the cost model with the measured programs.</source>
        <translation>Aktualisiert das Kostenmodell mit den gemessenen Programmen.</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="360"/>
        <source>Searching: random tile sizes and annotations of the sketches, evolved over generations and ranked by the cost model; nobody wrote this search space by hand.</source>
        <translation>Sucht: zufällige Kachelgrößen und Annotationen der Skizzen, über Generationen entwickelt und vom Kostenmodell bewertet; diesen Suchraum hat niemand von Hand geschrieben.</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="363"/>
        <source>Searching: drawing random programs from the sketches (no model).</source>
        <translation>Sucht: zieht zufällige Programme aus den Skizzen (ohne Modell).</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="365"/>
        <source>Searching: simulated annealing walks the template&apos;s configs under the XGBoost model, refit every 64 measurements; the plan&apos;s last 5% are random configs.</source>
        <translation>Sucht: Simulated Annealing durchläuft die Konfigurationen der Vorlage unter dem XGBoost-Modell, das alle 64 Messungen neu trainiert wird; die letzten 5 % des Plans sind zufällige Konfigurationen.</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="368"/>
        <source>Searching: a new generation of configs from roulette selection, single-point crossover and mutation of knob values.</source>
        <translation>Sucht: eine neue Generation von Konfigurationen durch Roulette-Auswahl, Ein-Punkt-Kreuzung und Mutation von Knopfwerten.</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="371"/>
        <source>Searching: drawing configs of the template uniformly, never the same twice.</source>
        <translation>Sucht: zieht Konfigurationen der Vorlage gleichverteilt, nie zweimal dieselbe.</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="373"/>
        <source>Searching: taking the template&apos;s configs in index order.</source>
        <translation>Sucht: nimmt die Konfigurationen der Vorlage in Indexreihenfolge.</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="391"/>
        <source>The race failed: %1</source>
        <translation>Das Rennen ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="393"/>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 trials per policy, seed %3 — %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2 Versuche je Strategie, Startwert %3 — %4</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="397"/>
        <source>racing</source>
        <translation>läuft</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="398"/>
        <source>replay from the workspace</source>
        <translation>Wiedergabe aus dem Arbeitsbereich</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="399"/>
        <source>finished</source>
        <translation>beendet</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="425"/>
        <source>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;%2&lt;/b&gt;&lt;/span&gt; — %3&lt;br&gt;%4 trials, best &lt;b&gt;%5&lt;/b&gt; GFLOP/s, %6 failed&lt;br&gt;&lt;i&gt;%7&lt;/i&gt;&lt;br&gt;&lt;small&gt;%8&lt;/small&gt;</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;%2&lt;/b&gt;&lt;/span&gt; — %3&lt;br&gt;%4 Versuche, beste &lt;b&gt;%5&lt;/b&gt; GFLOP/s, %6 fehlgeschlagen&lt;br&gt;&lt;i&gt;%7&lt;/i&gt;&lt;br&gt;&lt;small&gt;%8&lt;/small&gt;</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="442"/>
        <source>%1 reached %2&apos;s best (%3 GFLOP/s): %4&lt;br&gt;</source>
        <translation>%1 erreichte das Beste von %2 (%3 GFLOP/s): %4&lt;br&gt;</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="445"/>
        <source>after %1 trials</source>
        <translation>nach %1 Versuchen</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="445"/>
        <source>not within the budget</source>
        <translation>nicht innerhalb des Budgets</translation>
    </message>
    <message>
        <location filename="../app/gui/race_view.cpp" line="477"/>
        <source>Cannot show the program: %1</source>
        <translation>Das Programm kann nicht gezeigt werden: %1</translation>
    </message>
</context>
<context>
    <name>ts::app::RecordsView</name>
    <message>
        <location filename="../app/gui/records_view.cpp" line="40"/>
        <source>Failures only</source>
        <translation>Nur Fehlschläge</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="44"/>
        <source>Export repro…</source>
        <translation>Repro exportieren…</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="45"/>
        <source>Measure again as manual</source>
        <translation>Als manuell erneut messen</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="46"/>
        <source>Add to search (seed)</source>
        <translation>Zur Suche hinzufügen (Seed)</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="51"/>
        <source>Filter by task, status or message</source>
        <translation>Nach Aufgabe, Status oder Meldung filtern</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="54"/>
        <source>Show the records of all sessions or of one</source>
        <translation>Datensätze aller Sitzungen oder einer einzelnen anzeigen</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="55"/>
        <source>Show only the records whose measurement failed</source>
        <translation>Nur Datensätze anzeigen, deren Messung fehlgeschlagen ist</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="74"/>
        <source>Write the selected record&apos;s steps, TVM log line, loop IR and a re-measure script to a folder</source>
        <translation>Schritte, TVM-Logzeile, Loop-IR und ein Skript zur Neumessung des ausgewählten Datensatzes in einen Ordner schreiben</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="141"/>
        <source>Refused: %1: %2</source>
        <translation>Abgelehnt: %1: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="142"/>
        <source>Done: %1 (record %2)</source>
        <translation>Erledigt: %1 (Datensatz %2)</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="143"/>
        <source>Done: %1</source>
        <translation>Erledigt: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="170"/>
        <source>All sessions</source>
        <translation>Alle Sitzungen</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="175"/>
        <source>Session %1 (%2, %3)</source>
        <translation>Sitzung %1 (%2, %3)</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="216"/>
        <source>Record %1 was imported: its task is not rebuilt here.</source>
        <translation>Datensatz %1 wurde importiert: Seine Aufgabe wird hier nicht neu aufgebaut.</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="239"/>
        <source>The task of record %1 cannot be rebuilt.</source>
        <translation>Die Aufgabe von Datensatz %1 kann nicht neu aufgebaut werden.</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="246"/>
        <source>Record %1 does not replay: %2</source>
        <translation>Die Schritte von Datensatz %1 lassen sich nicht anwenden: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="281"/>
        <source>No workspace</source>
        <translation>Kein Arbeitsbereich</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="283"/>
        <source>Loading records…</source>
        <translation>Datensätze werden geladen…</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="285"/>
        <source>%L1 records, %L2 loaded</source>
        <translation>%L1 Datensätze, %L2 geladen</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="287"/>
        <source>%L1 records</source>
        <translation>%L1 Datensätze</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="289"/>
        <source>, %L1 shown</source>
        <translation>, %L1 angezeigt</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="302"/>
        <source>Export repro of record %1 into</source>
        <translation>Repro von Datensatz %1 exportieren nach</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="321"/>
        <source>Export failed: %1</source>
        <translation>Export fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="326"/>
        <source>Repro of record %1 written to %2</source>
        <translation>Repro von Datensatz %1 nach %2 geschrieben</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="327"/>
        <source>Repro of record %1 written to %2 (%3)</source>
        <translation>Repro von Datensatz %1 nach %2 geschrieben (%3)</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="342"/>
        <source>Select a record first.</source>
        <translation>Wählen Sie zuerst einen Datensatz.</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="346"/>
        <source>No session is running: start or resume one that tunes this record&apos;s task.</source>
        <translation>Keine Sitzung läuft: Starten oder setzen Sie eine fort, die die Aufgabe dieses Datensatzes tunt.</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="354"/>
        <source>Record %1&apos;s task (%2) is not one of the running session&apos;s tasks.</source>
        <translation>Die Aufgabe von Datensatz %1 (%2) gehört nicht zu den Aufgaben der laufenden Sitzung.</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="366"/>
        <source>Measure this record&apos;s state again now, in the running session, as a manual record (its own marker in the views)</source>
        <translation>Den Zustand dieses Datensatzes jetzt in der laufenden Sitzung erneut messen, als manuellen Datensatz (mit eigener Markierung in den Ansichten)</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="370"/>
        <source>Put this record&apos;s state into the initial population of every later round of its task</source>
        <translation>Den Zustand dieses Datensatzes in die Anfangspopulation jeder späteren Runde seiner Aufgabe aufnehmen</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="387"/>
        <source>Record %1&apos;s steps do not read: %2</source>
        <translation>Die Schritte von Datensatz %1 lassen sich nicht lesen: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="396"/>
        <source>Record %1 sent to the session as a seed…</source>
        <translation>Datensatz %1 als Seed an die Sitzung gesendet…</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="397"/>
        <source>Record %1 sent to the session to measure…</source>
        <translation>Datensatz %1 zur Messung an die Sitzung gesendet…</translation>
    </message>
    <message>
        <location filename="../app/gui/records_view.cpp" line="398"/>
        <source>Refused: %1</source>
        <translation>Abgelehnt: %1</translation>
    </message>
</context>
<context>
    <name>ts::app::RooflineView</name>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="81"/>
        <location filename="../app/gui/roofline_view.cpp" line="181"/>
        <source>Measure machine</source>
        <translation>Maschine vermessen</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="82"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="93"/>
        <source>Measure this machine&apos;s FMA peak per thread count, its memory bandwidth (triad) and caches, and keep them in the workspace</source>
        <translation>FMA-Spitzenleistung je Threadzahl, Speicherbandbreite (Triad) und Caches dieser Maschine messen und im Arbeitsbereich ablegen</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="118"/>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="154"/>
        <source>Cannot read the workspace: %1</source>
        <translation>Arbeitsbereich nicht lesbar: %1</translation>
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
            <numerusform>%1: FMA-Spitze %2 GFLOP/s auf %n Thread; %3 GB/s; Caches L1d %4 KiB, L2 %5 KiB, L3 %6 MiB</numerusform>
            <numerusform>%1: FMA-Spitze %2 GFLOP/s auf %n Threads; %3 GB/s; Caches L1d %4 KiB, L2 %5 KiB, L3 %6 MiB</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/roofline_view.cpp" line="194"/>
        <source>%1: %n record(s); the best reaches %2 GFLOP/s at %3 FLOP/byte, %4% of its roof (%5) and %6% of the FMA peak.</source>
        <translation>
            <numerusform>%1: %n Datensatz; der beste erreicht %2 GFLOP/s bei %3 FLOP/Byte, %4 % seines Dachs (%5) und %6 % der FMA-Spitze.</numerusform>
            <numerusform>%1: %n Datensätze; der beste erreicht %2 GFLOP/s bei %3 FLOP/Byte, %4 % seines Dachs (%5) und %6 % der FMA-Spitze.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="201"/>
        <source>memory-bound, its data in %1</source>
        <translation>speichergebunden, Daten im %1</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="203"/>
        <source>compute-bound</source>
        <translation>rechengebunden</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="177"/>
        <source>Measure again</source>
        <translation>Erneut vermessen</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="179"/>
        <source>No machine profile in this workspace yet: measure this machine&apos;s limits to draw the roofs (about 10 s).</source>
        <translation>Noch kein Maschinenprofil in diesem Arbeitsbereich: Vermessen Sie die Grenzen dieser Maschine, um die Dächer zu zeichnen (etwa 10 s).</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="188"/>
        <source>Select a task to see its records against the roofs.</source>
        <translation>Wählen Sie eine Aufgabe, um ihre Datensätze vor den Dächern zu sehen.</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="190"/>
        <source>%1 has no successful record on this machine yet.</source>
        <translation>%1 hat auf dieser Maschine noch keinen erfolgreichen Datensatz.</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/roofline_view.cpp" line="206"/>
        <source>%1: %n record(s); the best reaches %2 GFLOP/s at %3 FLOP/byte.</source>
        <translation>
            <numerusform>%1: %n Datensatz; der beste erreicht %2 GFLOP/s bei %3 FLOP/Byte.</numerusform>
            <numerusform>%1: %n Datensätze; der beste erreicht %2 GFLOP/s bei %3 FLOP/Byte.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="221"/>
        <source>no workspace is open</source>
        <translation>kein Arbeitsbereich geöffnet</translation>
    </message>
    <message>
        <location filename="../app/gui/roofline_view.cpp" line="245"/>
        <source>Measuring the machine failed: %1</source>
        <translation>Vermessen der Maschine fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>ts::app::ScheduleEditor</name>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="68"/>
        <source>Edit a Copy of the Selection</source>
        <translation>Kopie der Auswahl bearbeiten</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="69"/>
        <source>Open the selected state&apos;s steps (a record, a sketch&apos;s sample, the best) in this editor</source>
        <translation>Die Schritte des ausgewählten Zustands (ein Datensatz, ein Sample eines Sketches, der beste) in diesem Editor öffnen</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="72"/>
        <source>Measure</source>
        <translation>Messen</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="73"/>
        <source>Add to Search</source>
        <translation>Zur Suche hinzufügen</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="87"/>
        <source>Select a state (a record, a sketch&apos;s sample, the best) and use Edit a Copy: its steps appear here as TVM JSON, one step per line, to edit.</source>
        <translation>Wählen Sie einen Zustand (einen Datensatz, ein Sample eines Sketches, den besten) und verwenden Sie „Kopie bearbeiten“: Seine Schritte erscheinen hier als TVM-JSON, ein Schritt pro Zeile, zum Bearbeiten.</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="108"/>
        <source>Right-click a loop to split, vectorize, parallelize or unroll it, or to compute another stage at it</source>
        <translation>Rechtsklick auf eine Schleife, um sie zu splitten, zu vektorisieren, zu parallelisieren oder abzurollen, oder um eine andere Stufe an ihr zu berechnen</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="112"/>
        <source>Loop nest</source>
        <translation>Schleifennest</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="113"/>
        <source>Loop IR</source>
        <translation>Loop-IR</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="114"/>
        <source>As calls</source>
        <translation>Als Aufrufe</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="157"/>
        <source>A copy of %1. Edits replay as you type; the original is unchanged.</source>
        <translation>Eine Kopie von %1. Änderungen werden beim Tippen nachgespielt; das Original bleibt unverändert.</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="160"/>
        <source>computing…</source>
        <translation>wird berechnet…</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="238"/>
        <source>Could not replay: %1</source>
        <translation>Nachspielen nicht möglich: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="266"/>
        <source>No loop IR: %1</source>
        <translation>Keine Loop-IR: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="275"/>
        <source>No score: %1</source>
        <translation>Kein Score: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="277"/>
        <source>Score of the %1 model (%2): %3, the sum over %4 stages (higher is better).</source>
        <translation>Score des Modells %1 (%2): %3, die Summe über %4 Stufen (höher ist besser).</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="282"/>
        <source>Estimated time of the %1 model (%2): %3 µs, the sum over %4 stages.</source>
        <translation>Geschätzte Zeit des Modells %1 (%2): %3 µs, die Summe über %4 Stufen.</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="287"/>
        <source>(Not the session&apos;s own model: %1.)</source>
        <translation>(Nicht das eigene Modell der Sitzung: %1.)</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="299"/>
        <source>Line %1: %2</source>
        <translation>Zeile %1: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="301"/>
        <source>Step %1 (line %2): %3</source>
        <translation>Schritt %1 (Zeile %2): %3</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="303"/>
        <source>Step %1 (line %2), field %3 (%4): %5</source>
        <translation>Schritt %1 (Zeile %2), Feld %3 (%4): %5</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="308"/>
        <source>The panes show the last steps that replayed.</source>
        <translation>Die Bereiche zeigen die letzten Schritte, die sich nachspielen ließen.</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="364"/>
        <source>Open a state in the editor first (Edit a Copy).</source>
        <translation>Öffnen Sie zuerst einen Zustand im Editor (Kopie bearbeiten).</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="366"/>
        <source>No tuning session is running: start one to measure this state in it or seed its search.</source>
        <translation>Keine Tuning-Sitzung läuft: Starten Sie eine, um diesen Zustand darin zu messen oder ihre Suche damit zu versorgen.</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="368"/>
        <source>The running session does not tune this task.</source>
        <translation>Die laufende Sitzung tunt diese Aufgabe nicht.</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="370"/>
        <source>The steps in the editor have not replayed (yet).</source>
        <translation>Die Schritte im Editor ließen sich (noch) nicht nachspielen.</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="374"/>
        <source>Measure these steps now in the running session (between two batches), stored as a manual record</source>
        <translation>Diese Schritte jetzt in der laufenden Sitzung messen (zwischen zwei Batches), gespeichert als manueller Datensatz</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="377"/>
        <source>Put these steps into the task&apos;s initial population in every later round</source>
        <translation>Diese Schritte in jeder späteren Runde in die Anfangspopulation der Aufgabe aufnehmen</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="387"/>
        <source>Not measured: %1</source>
        <translation>Nicht gemessen: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="391"/>
        <source>Measuring: the session measures these steps between two batches…</source>
        <translation>Messung: Die Sitzung misst diese Schritte zwischen zwei Batches…</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="401"/>
        <source>Not added: %1</source>
        <translation>Nicht hinzugefügt: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="405"/>
        <source>Adding to the search: the session takes it between two batches…</source>
        <translation>Wird zur Suche hinzugefügt: Die Sitzung übernimmt ihn zwischen zwei Batches…</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="414"/>
        <source>Refused (%1): %2</source>
        <translation>Abgelehnt (%1): %2</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="416"/>
        <source>Measured: record %1 (%2).</source>
        <translation>Gemessen: Datensatz %1 (%2).</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="418"/>
        <source>Done: %1.</source>
        <translation>Erledigt: %1.</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="437"/>
        <source>Right-click a loop to split, annotate or compute a stage at it</source>
        <translation>Rechtsklick auf eine Schleife, um sie zu splitten, zu annotieren oder eine Stufe an ihr zu berechnen</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="442"/>
        <source>The steps in the editor have not replayed: fix or wait for them first</source>
        <translation>Die Schritte im Editor ließen sich nicht nachspielen: Korrigieren Sie sie oder warten Sie zuerst</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="448"/>
        <source>Loop %1 of %2</source>
        <translation>Schleife %1 von %2</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="450"/>
        <source>Split by…</source>
        <translation>Splitten nach…</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="455"/>
        <source>Split a Loop</source>
        <translation>Schleife splitten</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="456"/>
        <source>Length of the inner loop (the loop has %1 iterations):</source>
        <translation>Länge der inneren Schleife (die Schleife hat %1 Iterationen):</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="457"/>
        <source>Length of the inner loop:</source>
        <translation>Länge der inneren Schleife:</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="469"/>
        <source>Vectorize</source>
        <translation>Vektorisieren</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="470"/>
        <source>Parallel</source>
        <translation>Parallel</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="470"/>
        <source>Unroll</source>
        <translation>Abrollen</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="477"/>
        <source>The loop is already annotated %1</source>
        <translation>Die Schleife ist bereits mit %1 annotiert</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="481"/>
        <source>Compute at This Loop</source>
        <translation>An dieser Schleife berechnen</translation>
    </message>
    <message>
        <location filename="../app/gui/schedule_editor.cpp" line="495"/>
        <source>Compute %1 Here</source>
        <translation>%1 hier berechnen</translation>
    </message>
</context>
<context>
    <name>ts::app::SchedulerView</name>
    <message>
        <location filename="../app/gui/scheduler_view.cpp" line="48"/>
        <source>Share (%)</source>
        <translation>Anteil (%)</translation>
    </message>
    <message>
        <location filename="../app/gui/scheduler_view.cpp" line="51"/>
        <source>trials spent</source>
        <translation>verbrauchte Versuche</translation>
    </message>
    <message>
        <location filename="../app/gui/scheduler_view.cpp" line="55"/>
        <source>weighted latency</source>
        <translation>gewichtete Latenz</translation>
    </message>
    <message>
        <location filename="../app/gui/scheduler_view.cpp" line="104"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>ts::app::SessionDialog</name>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="62"/>
        <source>New tuning session</source>
        <translation>Neue Tuning-Sitzung</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="66"/>
        <source>What to tune</source>
        <translation>Was getunt wird</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="67"/>
        <source>&amp;Network</source>
        <translation>&amp;Netz</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="68"/>
        <source>&amp;Operator</source>
        <translation>&amp;Operator</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="77"/>
        <source>all tasks, or ids such as 0,3,5</source>
        <translation>alle Aufgaben oder IDs wie 0,3,5</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="84"/>
        <source>Network:</source>
        <translation>Netz:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="85"/>
        <source>Batch:</source>
        <translation>Batchgröße:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="86"/>
        <source>Tasks:</source>
        <translation>Aufgaben:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="88"/>
        <source>Operator:</source>
        <translation>Operator:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="89"/>
        <source>Shape:</source>
        <translation>Shape:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="90"/>
        <source>Layout:</source>
        <translation>Layout:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="93"/>
        <source>Shadow models</source>
        <translation>Schattenmodelle</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="107"/>
        <source>Scored on every round&apos;s candidates, without steering; compared in Predicted vs measured.</source>
        <translation>Bewerten die Kandidaten jeder Runde, ohne zu lenken; verglichen in „Vorhersage vs. Messung“.</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="116"/>
        <source>Search</source>
        <translation>Suche</translation>
    </message>
    <message>
        <source>Ansor (sketches + evolution)</source>
        <translation type="vanished">Ansor (Sketches + Evolution)</translation>
    </message>
    <message>
        <source>Random sampling</source>
        <translation type="vanished">Zufallsstichproben</translation>
    </message>
    <message>
        <source>AutoTVM: XGBoost + simulated annealing</source>
        <translation type="vanished">AutoTVM: XGBoost + Simulated Annealing</translation>
    </message>
    <message>
        <source>AutoTVM: genetic algorithm</source>
        <translation type="vanished">AutoTVM: genetischer Algorithmus</translation>
    </message>
    <message>
        <source>AutoTVM: random configs</source>
        <translation type="vanished">AutoTVM: zufällige Konfigurationen</translation>
    </message>
    <message>
        <source>AutoTVM: grid search</source>
        <translation type="vanished">AutoTVM: Gittersuche</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="124"/>
        <source>AutoTVM policies tune the tasks one of its hand-written templates fits; the cost model below is Ansor&apos;s and is not used by them.</source>
        <translation>AutoTVM-Strategien optimieren die Aufgaben, zu denen eine seiner handgeschriebenen Vorlagen passt; das Kostenmodell unten ist das von Ansor und wird von ihnen nicht verwendet.</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="129"/>
        <source>Rank the model&apos;s warm-up by the analytical estimate</source>
        <translation>Aufwärmphase des Modells nach der analytischen Schätzung ordnen</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="130"/>
        <source>Until a learned model has trained (every task&apos;s first round), Ansor ranks the candidates at random; TuneScope ranks them by the roofline estimate, with the machine&apos;s measured limits when the Roofline view has measured them.</source>
        <translation>Bis ein lernendes Modell trainiert ist (die erste Runde jeder Aufgabe), ordnet Ansor die Kandidaten zufällig; TuneScope ordnet sie nach der Roofline-Schätzung, mit den gemessenen Grenzen der Maschine, sobald die Roofline-Ansicht sie gemessen hat.</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="136"/>
        <source>This machine&apos;s CPU (%1)</source>
        <translation>Die CPU dieses Rechners (%1)</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="139"/>
        <source>A CUDA target (or any TVM target string) searches with Ansor&apos;s GPU rules; its candidates are measured by tunescope-gpu-runner on this machine&apos;s GPU, or on a GPU elsewhere through the folder under Measurement.</source>
        <translation>Ein CUDA-Ziel (oder ein beliebiger TVM-Zielstring) sucht mit Ansors GPU-Regeln; seine Kandidaten misst tunescope-gpu-runner auf der GPU dieses Rechners oder, über den Ordner unter Messung, auf einer GPU anderswo.</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="146"/>
        <source>all cores (%1)</source>
        <translation>alle Kerne (%1)</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="148"/>
        <source>Policy:</source>
        <translation>Strategie:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="149"/>
        <source>Cost model:</source>
        <translation>Kostenmodell:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="151"/>
        <source>Target:</source>
        <translation>Ziel:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="152"/>
        <source>Trials (all sessions of these tasks):</source>
        <translation>Versuche (alle Sitzungen dieser Aufgaben):</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="153"/>
        <source>Measures per round:</source>
        <translation>Messungen pro Runde:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="154"/>
        <source>Seed:</source>
        <translation>Seed:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="155"/>
        <source>Threads:</source>
        <translation>Threads:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="158"/>
        <source>Measurement</source>
        <translation>Messung</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="162"/>
        <source>Flush caches before each repeat</source>
        <translation>Caches vor jeder Wiederholung leeren</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="165"/>
        <source>as TVM (2 for a network, 1 for an operator)</source>
        <translation>wie TVM (2 für ein Netz, 1 für einen Operator)</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="166"/>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="167"/>
        <source>weights packed in the kernel (1)</source>
        <translation>Gewichte im Kernel umgepackt (1)</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="168"/>
        <source>weights packed before the runs (2)</source>
        <translation>Gewichte vor den Läufen umgepackt (2)</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="170"/>
        <source>Ansor&apos;s layout_rewrite_option (CPU targets): a conv2d&apos;s, dense&apos;s, matmul&apos;s or batch_matmul&apos;s weight packed into the layout the schedule&apos;s loops read, inside the timed kernel (1, TVM&apos;s default for an operator) or once before the timed runs (2, as a network&apos;s constant weights are). As TVM: 2 for a network&apos;s tasks, 1 for an operator, none for AutoTVM policies and GPU targets.</source>
        <translation>Ansors layout_rewrite_option (CPU-Ziele): Die Gewichte eines conv2d, dense, matmul oder batch_matmul werden in das Layout umgepackt, in dem die Schleifen des Schedules sie lesen, im gemessenen Kernel (1, TVMs Vorgabe für einen Operator) oder einmal vor den gemessenen Läufen (2, wie die konstanten Gewichte eines Netzes). Wie TVM: 2 für die Aufgaben eines Netzes, 1 für einen Operator, keines für AutoTVM-Strategien und GPU-Ziele.</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="178"/>
        <location filename="../app/gui/session_dialog.cpp" line="182"/>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="184"/>
        <source>empty: this machine&apos;s GPU</source>
        <translation>leer: die GPU dieses Rechners</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="186"/>
        <source>GPU targets measured on another machine: each batch is written to this folder as batch-PID-K.jsonl; run it there with tunescope-gpu-runner and move the output here as batch-PID-K.results.jsonl. The session waits for it (Stop ends the wait).</source>
        <translation>GPU-Ziele, auf einem anderen Rechner gemessen: Jeder Stapel wird als batch-PID-K.jsonl in diesen Ordner geschrieben; führen Sie ihn dort mit tunescope-gpu-runner aus und verschieben Sie die Ausgabe als batch-PID-K.results.jsonl hierher. Die Sitzung wartet darauf (Stopp beendet das Warten).</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="190"/>
        <source>Number:</source>
        <translation>Anzahl:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="191"/>
        <source>Repeat:</source>
        <translation>Wiederholungen:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="192"/>
        <source>min_repeat_ms:</source>
        <translation>min_repeat_ms:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="194"/>
        <source>Layout rewrite:</source>
        <translation>Layout-Umschreibung:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="195"/>
        <source>Build timeout:</source>
        <translation>Build-Timeout:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="196"/>
        <source>Run timeout:</source>
        <translation>Ausführungs-Timeout:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="197"/>
        <source>GPU elsewhere, through:</source>
        <translation>GPU anderswo, über:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="200"/>
        <source>This machine</source>
        <translation>Dieser Rechner</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="201"/>
        <source>Workers (PostgreSQL workspace)</source>
        <translation>Worker (PostgreSQL-Arbeitsbereich)</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="202"/>
        <source>Workers: each batch is queued in the workspace and measured by tunescope-worker processes on any machine (docs/workers.md); needs a postgresql:// workspace.</source>
        <translation>Worker: Jeder Stapel wird im Arbeitsbereich eingereiht und von tunescope-worker-Prozessen auf beliebigen Rechnern gemessen (docs/workers.md); braucht einen postgresql://-Arbeitsbereich.</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="204"/>
        <source>Measure on:</source>
        <translation>Messen auf:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="208"/>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="210"/>
        <source>Workspace</source>
        <translation>Arbeitsbereich</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="211"/>
        <source>TuneScope workspaces (*.tunescope);;All files (*)</source>
        <translation>TuneScope-Arbeitsbereiche (*.tunescope);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="216"/>
        <source>Workspace:</source>
        <translation>Arbeitsbereich:</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="224"/>
        <source>&amp;Start</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="266"/>
        <source>Extra cost models, trained on the same records as the session&apos;s model: each scores every round&apos;s candidates without steering the search, and the Predicted vs measured view draws each one&apos;s pairwise accuracy and Spearman per round.</source>
        <translation>Zusätzliche Kostenmodelle, trainiert mit denselben Datensätzen wie das Modell der Sitzung: Jedes bewertet die Kandidaten jeder Runde, ohne die Suche zu lenken, und die Ansicht „Vorhersage vs. Messung“ zeichnet je Runde die paarweise Genauigkeit und Spearman jedes Modells.</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="269"/>
        <source>Shadow models score the candidates the session&apos;s model ranks; the %1 policy does not rank with the session&apos;s model (Ansor only).</source>
        <translation>Schattenmodelle bewerten die Kandidaten, die das Modell der Sitzung reiht; die Strategie %1 reiht nicht mit dem Modell der Sitzung (nur Ansor).</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="356"/>
        <source>Target: %1</source>
        <translation>Ziel: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="359"/>
        <source>Policy: AutoTVM&apos;s templates here are CPU templates; tune a GPU target with Ansor or random sampling.</source>
        <translation>Strategie: AutoTVMs Vorlagen sind hier CPU-Vorlagen; eine GPU mit Ansor oder Zufallsauswahl tunen.</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="363"/>
        <source>Measurement: workers measure a PostgreSQL workspace&apos;s queue; give a postgresql:// workspace, or measure on this machine.</source>
        <translation>Messung: Worker messen die Warteschlange eines PostgreSQL-Arbeitsbereichs; geben Sie einen postgresql://-Arbeitsbereich an oder messen Sie auf diesem Rechner.</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="367"/>
        <source>Measurement: a folder for a GPU elsewhere needs a GPU target.</source>
        <translation>Messung: Ein Ordner für eine GPU anderswo braucht ein GPU-Ziel.</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="369"/>
        <source>Measurement: cannot make the folder %1.</source>
        <translation>Messung: Der Ordner %1 kann nicht angelegt werden.</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="373"/>
        <source>Tasks: give task ids separated by commas (such as 0,3,5), or nothing for all tasks.</source>
        <translation>Aufgaben: Geben Sie durch Kommas getrennte Aufgaben-IDs an (etwa 0,3,5) oder nichts für alle Aufgaben.</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="377"/>
        <source>Shape: %1 takes %2.</source>
        <translation>Shape: %1 erwartet %2.</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="385"/>
        <source>Policy: %1</source>
        <translation>Strategie: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/session_dialog.cpp" line="388"/>
        <source>Choose a workspace file.</source>
        <translation>Wählen Sie eine Arbeitsbereichsdatei.</translation>
    </message>
</context>
<context>
    <name>ts::app::SessionsView</name>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="33"/>
        <source>Workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="46"/>
        <source>Resume session</source>
        <translation>Sitzung fortsetzen</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="48"/>
        <source>Continue the selected session with its tasks and settings, up to the trial budget</source>
        <translation>Die ausgewählte Sitzung mit ihren Aufgaben und Einstellungen bis zum Versuchsbudget fortsetzen</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="50"/>
        <source>Show live session</source>
        <translation>Laufende Sitzung anzeigen</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="56"/>
        <source>its budget</source>
        <translation>eigenes Budget</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="57"/>
        <source>to </source>
        <translation>bis </translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="58"/>
        <source> trials</source>
        <translation> Versuche</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="59"/>
        <source>The budget when resuming (all sessions of the tasks together)</source>
        <translation>Das Budget beim Fortsetzen (alle Sitzungen der Aufgaben zusammen)</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="88"/>
        <source>tunescope-worker processes measuring this workspace&apos;s queue, on any machine</source>
        <translation>tunescope-worker-Prozesse, die die Warteschlange dieses Arbeitsbereichs messen, auf beliebigen Rechnern</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="121"/>
        <source>Workspace: %1</source>
        <translation>Arbeitsbereich: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="157"/>
        <source>Workers (%1)</source>
        <translation>Worker (%1)</translation>
    </message>
    <message>
        <location filename="../app/gui/sessions_view.cpp" line="159"/>
        <source>Workers: %1</source>
        <translation>Worker: %1</translation>
    </message>
</context>
<context>
    <name>ts::app::SketchView</name>
    <message>
        <location filename="../app/gui/sketch_view.cpp" line="56"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location filename="../app/gui/sketch_view.cpp" line="60"/>
        <source>Show all the session&apos;s tasks, or one</source>
        <translation>Alle Aufgaben der Sitzung oder eine einzelne anzeigen</translation>
    </message>
    <message>
        <location filename="../app/gui/sketch_view.cpp" line="138"/>
        <source>All tasks</source>
        <translation>Alle Aufgaben</translation>
    </message>
    <message>
        <location filename="../app/gui/sketch_view.cpp" line="175"/>
        <source>Cannot read the session: %1</source>
        <translation>Sitzung kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/sketch_view.cpp" line="179"/>
        <source>No session: start or open one to see its sketches.</source>
        <translation>Keine Sitzung: Starten oder öffnen Sie eine, um ihre Sketches zu sehen.</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sketch_view.cpp" line="189"/>
        <source>%n measured state(s)</source>
        <translation>
            <numerusform>%n gemessener Zustand</numerusform>
            <numerusform>%n gemessene Zustände</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sketch_view.cpp" line="191"/>
        <source>, %n matching no sketch</source>
        <translation>
            <numerusform>, %n ohne passenden Sketch</numerusform>
            <numerusform>, %n ohne passenden Sketch</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/sketch_view.cpp" line="207"/>
        <source> · constraints: %1 of %2 sketches allowed</source>
        <translation> · Einschränkungen: %1 von %2 Sketches erlaubt</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sketch_view.cpp" line="209"/>
        <source>, %n measured state(s) break them</source>
        <translation>
            <numerusform>, %n gemessener Zustand verletzt sie</numerusform>
            <numerusform>, %n gemessene Zustände verletzen sie</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ts::app::SteeringView</name>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="69"/>
        <source>&amp;Undo steering</source>
        <translation>Lenkung &amp;rückgängig</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="70"/>
        <source>&amp;Redo steering</source>
        <translation>Lenkung &amp;wiederholen</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="71"/>
        <source>Add constraint…</source>
        <translation>Einschränkung hinzufügen…</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="72"/>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="73"/>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="74"/>
        <source>Save constraints…</source>
        <translation>Einschränkungen speichern…</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="75"/>
        <source>Load constraints…</source>
        <translation>Einschränkungen laden…</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="80"/>
        <source>Make the previous steering entry the one in effect (a manual record stays in the store)</source>
        <translation>Den vorigen Lenkungseintrag wieder wirksam machen (ein manueller Datensatz bleibt im Speicher)</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="84"/>
        <source>Apply the undone steering entry again</source>
        <translation>Den rückgängig gemachten Lenkungseintrag erneut anwenden</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="86"/>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="87"/>
        <source>Redo</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="90"/>
        <source>Bound a split factor, the unroll limit, the vector length or the parallel extent, or forbid or require a sketch rule, for the selected task</source>
        <translation>Für die ausgewählte Aufgabe einen Split-Faktor, die Unroll-Grenze, die Vektorlänge oder die parallele Ausdehnung begrenzen oder eine Sketch-Regel verbieten oder verlangen</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="92"/>
        <source>Take the selected constraint off the task</source>
        <translation>Die ausgewählte Einschränkung von der Aufgabe entfernen</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="93"/>
        <source>Take every constraint off the task</source>
        <translation>Alle Einschränkungen von der Aufgabe entfernen</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="94"/>
        <source>Write every task&apos;s constraints to a file that tunescope-cli tune --constraints and Load constraints… read</source>
        <translation>Die Einschränkungen aller Aufgaben in eine Datei schreiben, die tunescope-cli tune --constraints und „Einschränkungen laden…“ lesen</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="96"/>
        <source>Set the constraints of the tasks a constraints file names</source>
        <translation>Die Einschränkungen der Aufgaben setzen, die eine Einschränkungsdatei nennt</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="105"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="105"/>
        <location filename="../app/gui/steering_view.cpp" line="350"/>
        <source>Constraints</source>
        <translation>Einschränkungen</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="105"/>
        <source>Seeds</source>
        <translation>Seeds</translation>
    </message>
    <message>
        <source>Manual records</source>
        <translation type="vanished">Manuelle Datensätze</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="105"/>
        <source>In population</source>
        <translation>In der Population</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="105"/>
        <source>Manual</source>
        <translation>Manuell</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="106"/>
        <source>The session&apos;s manual records of the task (undone ones too)</source>
        <translation>Die manuellen Datensätze der Sitzung für diese Aufgabe (auch rückgängig gemachte)</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="108"/>
        <source>Manual states in the task&apos;s population now (undo takes them out; their records stay)</source>
        <translation>Manuelle Zustände, die jetzt in der Population der Aufgabe sind (Rückgängig nimmt sie heraus; ihre Datensätze bleiben)</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="121"/>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="123"/>
        <source>Tasks</source>
        <translation>Aufgaben</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="141"/>
        <source>undo</source>
        <translation>rückgängig</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="146"/>
        <source>redo</source>
        <translation>wiederholen</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="160"/>
        <source>Save the constraints</source>
        <translation>Einschränkungen speichern</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="160"/>
        <location filename="../app/gui/steering_view.cpp" line="166"/>
        <source>Constraints (*.json);;All files (*)</source>
        <translation>Einschränkungen (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="166"/>
        <source>Load constraints</source>
        <translation>Einschränkungen laden</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="283"/>
        <source>%1. %2 — undone</source>
        <translation>%1. %2 — rückgängig gemacht</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="283"/>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="289"/>
        <source>In effect now</source>
        <translation>Jetzt wirksam</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="290"/>
        <source>Undone: Redo applies it again; a new command drops it</source>
        <translation>Rückgängig gemacht: Wiederholen wendet ihn erneut an; ein neuer Befehl verwirft ihn</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="323"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="351"/>
        <source>Constraints of task %1 (%2), waiting for the session</source>
        <translation>Einschränkungen von Aufgabe %1 (%2), warten auf die Sitzung</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="354"/>
        <source>Constraints of task %1 (%2)</source>
        <translation>Einschränkungen von Aufgabe %1 (%2)</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="369"/>
        <source>(none: the search may propose any state)</source>
        <translation>(keine: Die Suche darf jeden Zustand vorschlagen)</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="399"/>
        <source>Applying: %1</source>
        <translation>Wird angewendet: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="400"/>
        <source>Waiting for the batch in flight to end: %1</source>
        <translation>Warten auf das Ende des laufenden Batches: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="404"/>
        <source>Session %1 runs: what you change here applies between two batches, at once while it is paused.</source>
        <translation>Sitzung %1 läuft: Was Sie hier ändern, gilt zwischen zwei Batches, sofort, solange sie pausiert.</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="407"/>
        <source>Session %1 is not running: its steering as stored. Resume it (Sessions) or start one to steer.</source>
        <translation>Sitzung %1 läuft nicht: ihre Lenkung wie gespeichert. Setzen Sie sie fort (Sitzungen) oder starten Sie eine, um zu lenken.</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="410"/>
        <source>No session: start one (Session &gt; New session…) to steer it.</source>
        <translation>Keine Sitzung: Starten Sie eine (Sitzung &gt; Neue Sitzung…), um sie zu lenken.</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="425"/>
        <location filename="../app/gui/steering_view.cpp" line="465"/>
        <source>Refused: %1: %2</source>
        <translation>Abgelehnt: %1: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="427"/>
        <source>Done: %1 (record %2)</source>
        <translation>Erledigt: %1 (Datensatz %2)</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="429"/>
        <source>Done: %1</source>
        <translation>Erledigt: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="442"/>
        <source>task %1 (%2)</source>
        <translation>Aufgabe %1 (%2)</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="449"/>
        <source>The constraint was not added: another session is shown now.</source>
        <translation>Die Einschränkung wurde nicht hinzugefügt: Jetzt wird eine andere Sitzung gezeigt.</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="490"/>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="494"/>
        <source>Constraints saved to %1</source>
        <translation>Einschränkungen in %1 gespeichert</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="505"/>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="515"/>
        <source>Cannot load constraints: task %1&apos;s DAG cannot be rebuilt.</source>
        <translation>Einschränkungen können nicht geladen werden: Der DAG von Aufgabe %1 lässt sich nicht neu aufbauen.</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="524"/>
        <source>Cannot load %1: %2</source>
        <translation>%1 kann nicht geladen werden: %2</translation>
    </message>
    <message>
        <location filename="../app/gui/steering_view.cpp" line="538"/>
        <source>%1 changes no task&apos;s constraints.</source>
        <translation>%1 ändert die Einschränkungen keiner Aufgabe.</translation>
    </message>
</context>
<context>
    <name>ts::app::SweepView</name>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="65"/>
        <source>Parameter:</source>
        <translation>Parameter:</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="69"/>
        <source>A split length or the unroll limit of the selected state; its legal values are measured with the rest of the state fixed</source>
        <translation>Eine Split-Länge oder das Unroll-Limit des gewählten Zustands; seine zulässigen Werte werden gemessen, der Rest des Zustands bleibt fest</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="72"/>
        <source>Sweep</source>
        <translation>Durchlaufen</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="73"/>
        <source>Measure every legal value of the parameter on this machine (in the runner process) and score it with the checked cost models; the points are stored in the workspace</source>
        <translation>Jeden zulässigen Wert des Parameters auf diesem Rechner messen (im Runner-Prozess) und mit den angehakten Kostenmodellen bewerten; die Punkte werden im Arbeitsbereich gespeichert</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="75"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="76"/>
        <source>Stop the measurement in flight; the values measured so far are kept</source>
        <translation>Die laufende Messung stoppen; die bisher gemessenen Werte bleiben erhalten</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="90"/>
        <source>Predict with:</source>
        <translation>Vorhersage mit:</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="91"/>
        <source>Each model first learns from the task&apos;s records in the workspace (those measured with the same layout rewrite); scores are its own scale, not GFLOP/s</source>
        <translation>Jedes Modell lernt zuerst aus den Datensätzen der Aufgabe im Arbeitsbereich (denen mit derselben Layout-Umschreibung); Bewertungen haben seine eigene Skala, nicht GFLOP/s</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="134"/>
        <source>No sweep yet.</source>
        <translation>Noch kein Durchlauf.</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="179"/>
        <source>Select a schedule state (a record, a trial, a sketch&apos;s state) to sweep one of its parameters.</source>
        <translation>Wählen Sie einen Schedule-Zustand (einen Datensatz, einen Versuch, den Zustand eines Sketches), um einen seiner Parameter zu durchlaufen.</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="185"/>
        <source>%1: listing the parameters…</source>
        <translation>%1: Parameter werden aufgelistet…</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="214"/>
        <source>%1, record %2</source>
        <translation>%1, Datensatz %2</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="214"/>
        <source>%1, selected state</source>
        <translation>%1, gewählter Zustand</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="216"/>
        <source>%1: cannot sweep: %2</source>
        <translation>%1: kein Durchlauf möglich: %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sweep_view.cpp" line="226"/>
        <source>%1 — %n value(s)</source>
        <translation>
            <numerusform>%1 — %n Wert</numerusform>
            <numerusform>%1 — %n Werte</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="229"/>
        <source>Candidate values: %1 (those whose state replays are measured)</source>
        <translation>Kandidaten: %1 (gemessen werden die, deren Zustand sich abspielen lässt)</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="239"/>
        <source>%1: nothing to sweep (no split with all its lengths chosen, no unroll limit).</source>
        <translation>%1: nichts zu durchlaufen (kein Split mit allen Längen gewählt, kein Unroll-Limit).</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sweep_view.cpp" line="241"/>
        <source>%1: %n parameter(s). Sweeps measure on this machine (%2), layout rewrite %3.</source>
        <translation>
            <numerusform>%1: %n Parameter. Durchläufe messen auf diesem Rechner (%2), Layout-Umschreibung %3.</numerusform>
            <numerusform>%1: %n Parameter. Durchläufe messen auf diesem Rechner (%2), Layout-Umschreibung %3.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="287"/>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="289"/>
        <source>%1 record %2</source>
        <translation>%1 Datensatz %2</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="290"/>
        <source>Sweeping %1</source>
        <translation>Durchlaufe %1</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="365"/>
        <source>Cancelling: the value being measured is stopped; those measured are kept…</source>
        <translation>Wird abgebrochen: Der Wert in Messung wird gestoppt; die gemessenen bleiben erhalten…</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="376"/>
        <source>%1 is learning from the task&apos;s records…</source>
        <translation>%1 lernt aus den Datensätzen der Aufgabe…</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="380"/>
        <source>%1 of %2 measured</source>
        <translation>%1 von %2 gemessen</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="382"/>
        <source>Measuring on this machine, one value at a time in the runner…</source>
        <translation>Messung auf diesem Rechner, ein Wert nach dem anderen im Runner…</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="396"/>
        <source>Sweep failed: %1</source>
        <translation>Durchlauf fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="397"/>
        <source>The sweep failed: %1</source>
        <translation>Der Durchlauf ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="403"/>
        <source>Swept %1</source>
        <translation>Durchlaufen: %1</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="405"/>
        <source>Cancelled: %1 of %2 values measured (kept).</source>
        <translation>Abgebrochen: %1 von %2 Werten gemessen (behalten).</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="406"/>
        <source>%1 of %2 values measured.</source>
        <translation>%1 von %2 Werten gemessen.</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="416"/>
        <source>Fastest: %1 at %2 GFLOP/s.</source>
        <translation>Am schnellsten: %1 mit %2 GFLOP/s.</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="420"/>
        <source>The state&apos;s own value %1: %2 GFLOP/s.</source>
        <translation>Der eigene Wert des Zustands, %1: %2 GFLOP/s.</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sweep_view.cpp" line="422"/>
        <source>%n failed (hover the crosses for why).</source>
        <translation>
            <numerusform>%n fehlgeschlagen (der Grund steht am Kreuz).</numerusform>
            <numerusform>%n fehlgeschlagen (der Grund steht an den Kreuzen).</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="432"/>
        <source>Stored as record %1.</source>
        <translation>Gespeichert als Datensatz %1.</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="433"/>
        <source>Stored as records %1–%2.</source>
        <translation>Gespeichert als Datensätze %1–%2.</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="438"/>
        <source>%1 had nothing to learn from (random scores)</source>
        <translation>%1 hatte nichts zum Lernen (zufällige Bewertungen)</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/sweep_view.cpp" line="440"/>
        <source>%1 learned from %n record(s) of the task</source>
        <translation>
            <numerusform>%1 lernte aus %n Datensatz der Aufgabe</numerusform>
            <numerusform>%1 lernte aus %n Datensätzen der Aufgabe</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="444"/>
        <source>Models: %1.</source>
        <translation>Modelle: %1.</translation>
    </message>
    <message>
        <location filename="../app/gui/sweep_view.cpp" line="465"/>
        <source>Cannot select record %1: %2</source>
        <translation>Datensatz %1 kann nicht gewählt werden: %2</translation>
    </message>
</context>
<context>
    <name>ts::app::TaskDagView</name>
    <message>
        <location filename="../app/gui/task_dag_view.cpp" line="22"/>
        <source>Select a task in the explorer to see its compute DAG.</source>
        <translation>Wählen Sie im Explorer eine Aufgabe, um ihren Berechnungsgraphen zu sehen.</translation>
    </message>
    <message>
        <location filename="../app/gui/task_dag_view.cpp" line="27"/>
        <source>%1 — task %2: %3</source>
        <translation>%1 — Aufgabe %2: %3</translation>
    </message>
    <message>
        <location filename="../app/gui/task_dag_view.cpp" line="28"/>
        <source>task %1: %2</source>
        <translation>Aufgabe %1: %2</translation>
    </message>
</context>
<context>
    <name>ts::app::TaskDetailsView</name>
    <message>
        <location filename="../app/gui/task_details_view.cpp" line="30"/>
        <source>Schedule:</source>
        <translation>Schedule:</translation>
    </message>
</context>
<context>
    <name>ts::models::NetworkTaskModel</name>
    <message>
        <location filename="../widgets/models/network_task_model.cpp" line="218"/>
        <source>Network / task</source>
        <translation>Netz / Aufgabe</translation>
    </message>
    <message>
        <location filename="../widgets/models/network_task_model.cpp" line="220"/>
        <source>GFLOP</source>
        <translation>GFLOP</translation>
    </message>
    <message>
        <location filename="../widgets/models/network_task_model.cpp" line="222"/>
        <source>Weight</source>
        <translation>Gewicht</translation>
    </message>
</context>
<context>
    <name>ts::models::RecordsModel</name>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="15"/>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="16"/>
        <source>instantiation error</source>
        <translation>Instanziierungsfehler</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="17"/>
        <source>compile error</source>
        <translation>Kompilierfehler</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="18"/>
        <source>device compile error</source>
        <translation>Gerätekompilierfehler</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="19"/>
        <source>runtime error</source>
        <translation>Laufzeitfehler</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="20"/>
        <source>wrong answer</source>
        <translation>falsches Ergebnis</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="21"/>
        <source>build timeout</source>
        <translation>Build-Timeout</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="22"/>
        <source>run timeout</source>
        <translation>Ausführungs-Timeout</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="23"/>
        <source>unknown error</source>
        <translation>unbekannter Fehler</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="165"/>
        <source>Records of %1 could not be read: %2</source>
        <translation>Datensätze von %1 konnten nicht gelesen werden: %2</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="218"/>
        <source>task %1</source>
        <translation>Aufgabe %1</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="307"/>
        <source>import</source>
        <translation>Import</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="335"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="337"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="339"/>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="341"/>
        <source>Cost (µs)</source>
        <translation>Laufzeit (µs)</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="343"/>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="345"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="347"/>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="349"/>
        <source>Predicted</source>
        <translation>Vorhersage</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="351"/>
        <source>Batch rank</source>
        <translation>Rang im Batch</translation>
    </message>
    <message>
        <location filename="../widgets/models/records_model.cpp" line="353"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
</context>
<context>
    <name>ts::models::SchedulerModel</name>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="47"/>
        <source>dead</source>
        <translation>aufgegeben</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="49"/>
        <source>no best yet</source>
        <translation>noch kein Bestwert</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="49"/>
        <source>+inf</source>
        <translation>+inf</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="83"/>
        <source>dead: %1</source>
        <translation>aufgegeben: %1</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="83"/>
        <source>tuning</source>
        <translation>wird getunt</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="127"/>
        <source>The scheduler&apos;s gradient before its last choice: the expected change of the network&apos;s latency per trial of this task (more negative: more to gain).</source>
        <translation>Der Gradient des Schedulers vor seiner letzten Wahl: die erwartete Änderung der Netzlatenz pro Versuch dieser Aufgabe (negativer: mehr zu gewinnen).</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="141"/>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="143"/>
        <source>Weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="145"/>
        <source>Trials (session)</source>
        <translation>Versuche (Sitzung)</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="147"/>
        <source>Trials (all)</source>
        <translation>Versuche (gesamt)</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="149"/>
        <source>Best (µs)</source>
        <translation>Bestwert (µs)</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="151"/>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="153"/>
        <source>Share of latency (%)</source>
        <translation>Latenzanteil (%)</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="155"/>
        <source>Gradient</source>
        <translation>Gradient</translation>
    </message>
    <message>
        <location filename="../widgets/models/scheduler_model.cpp" line="157"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
</context>
<context>
    <name>ts::models::SessionsModel</name>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="95"/>
        <source>%1 (live)</source>
        <translation>%1 (live)</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="97"/>
        <source>interrupted</source>
        <translation>unterbrochen</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="111"/>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="113"/>
        <source>Tuned</source>
        <translation>Getunt</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="115"/>
        <source>Policy</source>
        <translation>Strategie</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="117"/>
        <source>Cost model</source>
        <translation>Kostenmodell</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="119"/>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="121"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../widgets/models/sessions_model.cpp" line="123"/>
        <source>Started</source>
        <translation>Gestartet</translation>
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
        <translation>keine Sketches</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/models/sketch_tree_model.cpp" line="328"/>
        <source>%n sketch(es), %1 measured</source>
        <translation>
            <numerusform>%n Sketch, %1 gemessen</numerusform>
            <numerusform>%n Sketches, %1 gemessen</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="346"/>
        <source>Other (no sketch matches)</source>
        <translation>Andere (kein passender Sketch)</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="347"/>
        <source>Sketch %1: %2</source>
        <translation>Sketch %1: %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/models/sketch_tree_model.cpp" line="354"/>
        <source>%n measured</source>
        <translation>
            <numerusform>%n gemessen</numerusform>
            <numerusform>%n gemessen</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="355"/>
        <source>%1, %2 failed</source>
        <translation>%1, %2 fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="365"/>
        <source>Records whose steps match none of the task&apos;s sketches (imported, or tuned with other rules or for another target)</source>
        <translation>Datensätze, deren Schritte zu keinem Sketch der Aufgabe passen (importiert oder mit anderen Regeln bzw. für ein anderes Target getunt)</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="377"/>
        <source>Trial %1</source>
        <translation>Versuch %1</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="383"/>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="395"/>
        <source>Record %1</source>
        <translation>Datensatz %1</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="399"/>
        <source>Not replayed: %1</source>
        <translation>Schritte nicht anwendbar: %1</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="411"/>
        <source>Task / sketch / state</source>
        <translation>Aufgabe / Sketch / Zustand</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="413"/>
        <source>Cost</source>
        <translation>Laufzeit</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="415"/>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="417"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="419"/>
        <source>Tile sizes</source>
        <translation>Tile-Größen</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="421"/>
        <source>Compute at</source>
        <translation>Compute at</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="423"/>
        <source>Parallel, vectorize, unroll</source>
        <translation>Parallel, vectorize, unroll</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_model.cpp" line="425"/>
        <source>Constraints</source>
        <translation>Einschränkungen</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_marks.cpp" line="83"/>
        <source>%1 of %2 sketches allowed</source>
        <translation>%1 von %2 Sketches erlaubt</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/models/sketch_tree_marks.cpp" line="84"/>
        <source>%1; %n measured state(s) break the constraints</source>
        <translation>
            <numerusform>%1; %n gemessener Zustand verletzt die Einschränkungen</numerusform>
            <numerusform>%1; %n gemessene Zustände verletzen die Einschränkungen</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_marks.cpp" line="93"/>
        <source>removed: %1</source>
        <translation>entfernt: %1</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_marks.cpp" line="96"/>
        <source>allowed</source>
        <translation>erlaubt</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_marks.cpp" line="115"/>
        <source>Removed by the task&apos;s constraints: it %1. The search samples no state of this sketch.</source>
        <translation>Von den Einschränkungen der Aufgabe entfernt: %1. Die Suche zieht keinen Zustand dieses Sketches.</translation>
    </message>
    <message>
        <location filename="../widgets/models/sketch_tree_marks.cpp" line="120"/>
        <source>Breaks the task&apos;s constraints: %1. The search would not propose it now.</source>
        <translation>Verletzt die Einschränkungen der Aufgabe: %1. Die Suche würde ihn jetzt nicht vorschlagen.</translation>
    </message>
</context>
<context>
    <name>ts::models::WorkersModel</name>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="59"/>
        <source>Worker %1 (pid %2, %3 threads)</source>
        <translation>Worker %1 (PID %2, %3 Threads)</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="78"/>
        <source>%1 s ago</source>
        <translation>vor %1 s</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="90"/>
        <source>Worker</source>
        <translation>Worker</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="92"/>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="94"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="96"/>
        <source>Measuring now</source>
        <translation>Misst gerade</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="98"/>
        <source>Measured</source>
        <translation>Gemessen</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="100"/>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="102"/>
        <source>Per minute</source>
        <translation>Pro Minute</translation>
    </message>
    <message>
        <location filename="../widgets/models/workers_model.cpp" line="104"/>
        <source>Last seen</source>
        <translation>Zuletzt gesehen</translation>
    </message>
</context>
<context>
    <name>ts::widgets::DagView</name>
    <message>
        <location filename="../widgets/dag_view.cpp" line="91"/>
        <source>Schedule:</source>
        <translation>Schedule:</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="92"/>
        <source>What the selected schedule does to each op</source>
        <translation>Was der ausgewählte Schedule mit jeder Operation macht</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="149"/>
        <source>inline</source>
        <translation>inline</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="151"/>
        <source>tile</source>
        <translation>tile</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="153"/>
        <source>cache</source>
        <translation>cache</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="155"/>
        <source>compute_at</source>
        <translation>compute_at</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="157"/>
        <source>parallel</source>
        <translation>parallel</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="159"/>
        <source>vectorize</source>
        <translation>vectorize</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="161"/>
        <source>unroll</source>
        <translation>unroll</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="163"/>
        <source>rfactor</source>
        <translation>rfactor</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="211"/>
        <source>schedule: %1</source>
        <translation>Schedule: %1</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="269"/>
        <source>Zoom &amp;In</source>
        <translation>Ver&amp;größern</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="272"/>
        <source>Zoom &amp;Out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="275"/>
        <source>&amp;Fit DAG</source>
        <translation>Graph &amp;einpassen</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="311"/>
        <source>input %1</source>
        <translation>Eingabe %1</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="329"/>
        <source>Layout failed: %1</source>
        <translation>Layout fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>ts::widgets::ModelScatter</name>
    <message>
        <location filename="../widgets/model_scatter.cpp" line="16"/>
        <source>measured (best cost / cost)</source>
        <translation>gemessen (beste Laufzeit / Laufzeit)</translation>
    </message>
    <message>
        <location filename="../widgets/model_scatter.cpp" line="17"/>
        <source>predicted (scaled)</source>
        <translation>vorhergesagt (skaliert)</translation>
    </message>
</context>
<context>
    <name>ts::widgets::ModelSearchPlot</name>
    <message>
        <location filename="../widgets/model_scatter.cpp" line="53"/>
        <source>trials</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <location filename="../widgets/model_scatter.cpp" line="54"/>
        <source>sum of best latency (ms)</source>
        <translation>Summe der besten Laufzeiten (ms)</translation>
    </message>
</context>
<context>
    <name>ts::widgets::NetworkRunPlot</name>
    <message>
        <location filename="../widgets/network_run_plot.cpp" line="20"/>
        <source>Time per run (ms)</source>
        <translation>Zeit pro Lauf (ms)</translation>
    </message>
    <message>
        <location filename="../widgets/network_run_plot.cpp" line="21"/>
        <source>measured</source>
        <translation>gemessen</translation>
    </message>
    <message>
        <location filename="../widgets/network_run_plot.cpp" line="24"/>
        <source>hot (each step timed again at once)</source>
        <translation>heiß (jeder Schritt sofort erneut gemessen)</translation>
    </message>
    <message>
        <location filename="../widgets/network_run_plot.cpp" line="27"/>
        <source>estimate (weight × record)</source>
        <translation>Schätzung (Gewicht × Datensatz)</translation>
    </message>
    <message>
        <location filename="../widgets/network_run_plot.cpp" line="65"/>
        <source>#%1 %2 ×%3 · %4%</source>
        <translation>#%1 %2 ×%3 · %4 %</translation>
    </message>
    <message>
        <location filename="../widgets/network_run_plot.cpp" line="73"/>
        <source>other steps (%1, not tasks) · %2%</source>
        <translation>andere Schritte (%1, keine Aufgaben) · %2 %</translation>
    </message>
</context>
<context>
    <name>ts::widgets::PredictionScatter</name>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="21"/>
        <source>Predicted score</source>
        <translation>Vorhergesagter Score</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="22"/>
        <source>Measured GFLOP/s</source>
        <translation>Gemessene GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="35"/>
        <source>random pick (eps-greedy)</source>
        <translation>Zufallsauswahl (eps-greedy)</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="71"/>
        <source>round %1 (%2)</source>
        <translation>Runde %1 (%2)</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="82"/>
        <source>manual</source>
        <translation>manuell</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="145"/>
        <source>Record %1, trial %2, round %3</source>
        <translation>Datensatz %1, Versuch %2, Runde %3</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="147"/>
        <source>Predicted %1, measured %2 GFLOP/s</source>
        <translation>Vorhergesagt %1, gemessen %2 GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="149"/>
        <source>A random pick (eps-greedy)</source>
        <translation>Eine Zufallsauswahl (eps-greedy)</translation>
    </message>
    <message>
        <location filename="../widgets/prediction_scatter.cpp" line="151"/>
        <source>A manual state (measured by hand)</source>
        <translation>Ein manueller Zustand (von Hand gemessen)</translation>
    </message>
</context>
<context>
    <name>ts::widgets::RaceRunner</name>
    <message>
        <location filename="../widgets/race_runner.cpp" line="67"/>
        <source>A race is running; cancel it first.</source>
        <translation>Ein Rennen läuft; brechen Sie es zuerst ab.</translation>
    </message>
    <message>
        <location filename="../widgets/race_runner.cpp" line="28"/>
        <source>finished</source>
        <translation>beendet</translation>
    </message>
</context>
<context>
    <name>ts::widgets::RooflinePlot</name>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="21"/>
        <source>Arithmetic intensity (FLOP per byte of compulsory traffic)</source>
        <translation>Arithmetische Intensität (FLOP je Byte Pflichtverkehr)</translation>
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
            <numerusform>%n Thread: %1 GFLOP/s, %2 GB/s</numerusform>
            <numerusform>%n Threads: %1 GFLOP/s, %2 GB/s</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="106"/>
        <source>%1: %2 GB/s</source>
        <translation>%1: %2 GB/s</translation>
    </message>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="113"/>
        <source>other tasks&apos; best</source>
        <translation>Bestwerte anderer Aufgaben</translation>
    </message>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="117"/>
        <source>this task&apos;s records</source>
        <translation>Datensätze dieser Aufgabe</translation>
    </message>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="122"/>
        <source>its best</source>
        <translation>ihr Bestwert</translation>
    </message>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="157"/>
        <source>task %1, record %2: %3 GFLOP/s at %4 FLOP/byte</source>
        <translation>Aufgabe %1, Datensatz %2: %3 GFLOP/s bei %4 FLOP/Byte</translation>
    </message>
    <message>
        <location filename="../widgets/roofline_plot.cpp" line="165"/>
        <source>
%1% of the roof (%2 GFLOP/s, its data in %3), %4% of the FMA peak</source>
        <translation>
%1 % des Dachs (%2 GFLOP/s, Daten im %3), %4 % der FMA-Spitze</translation>
    </message>
</context>
<context>
    <name>ts::widgets::SessionHub</name>
    <message>
        <location filename="../widgets/session_hub.cpp" line="95"/>
        <source>Cannot open the workspace %1: %2</source>
        <translation>Arbeitsbereich %1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="129"/>
        <source>Cannot load session %1: %2</source>
        <translation>Sitzung %1 kann nicht geladen werden: %2</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="176"/>
        <source>1 record measured with layout rewrite %1</source>
        <translation>1 Messung mit Layout-Umschreibung %1</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="177"/>
        <source>%1 records measured with layout rewrite %2</source>
        <translation>%1 Messungen mit Layout-Umschreibung %2</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="180"/>
        <source>Not resumed: %1 of these tasks. They time another kernel; a session with that layout rewrite resumes them.</source>
        <translation>Nicht fortgesetzt: %1 dieser Aufgaben. Sie messen einen anderen Kernel; eine Sitzung mit dieser Layout-Umschreibung setzt sie fort.</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="310"/>
        <source>Session %1 did not record what it tuned, so it cannot be resumed.</source>
        <translation>Sitzung %1 hat nicht gespeichert, was sie getunt hat, und kann daher nicht fortgesetzt werden.</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="317"/>
        <source>Session %1 cannot be resumed: %2</source>
        <translation>Sitzung %1 kann nicht fortgesetzt werden: %2</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="395"/>
        <source>No session is running, so there is no model to switch.</source>
        <translation>Es läuft keine Sitzung, also gibt es kein Modell zu wechseln.</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="412"/>
        <source>Cannot switch the model to %1: %2</source>
        <translation>Das Modell kann nicht zu %1 gewechselt werden: %2</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="440"/>
        <source>Cannot %1: %2</source>
        <translation>%1 nicht möglich: %2</translation>
    </message>
    <message>
        <location filename="../widgets/session_hub.cpp" line="482"/>
        <source>The session failed: %1</source>
        <translation>Die Sitzung ist fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>ts::widgets::ShadowMetricsPlot</name>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="31"/>
        <source>Round</source>
        <translation>Runde</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="94"/>
        <source>%1 (session)</source>
        <translation>%1 (Sitzung)</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="105"/>
        <source>%1 (failed)</source>
        <translation>%1 (fehlgeschlagen)</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="113"/>
        <source>Spearman&apos;s rho</source>
        <translation>Spearmans Rho</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="113"/>
        <source>Pairwise accuracy</source>
        <translation>Paarweise Genauigkeit</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="148"/>
        <source>%1 (the session&apos;s model)</source>
        <translation>%1 (das Modell der Sitzung)</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="148"/>
        <source>%1 (shadow)</source>
        <translation>%1 (Schatten)</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="149"/>
        <source>round %1, task %2</source>
        <translation>Runde %1, Aufgabe %2</translation>
    </message>
    <message>
        <location filename="../widgets/shadow_metrics_plot.cpp" line="151"/>
        <source>Pairwise accuracy %1, Spearman %2 over %3 candidates</source>
        <translation>Paarweise Genauigkeit %1, Spearman %2 über %3 Kandidaten</translation>
    </message>
</context>
<context>
    <name>ts::widgets::SweepPlot</name>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="25"/>
        <source>cannot score it</source>
        <translation>kann ihn nicht bewerten</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="46"/>
        <source>Measured GFLOP/s</source>
        <translation>Gemessene GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="47"/>
        <source>Prediction, 0–1 per model (not GFLOP/s)</source>
        <translation>Vorhersage, 0–1 je Modell (nicht GFLOP/s)</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="52"/>
        <source>measured GFLOP/s</source>
        <translation>gemessene GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="55"/>
        <source>failed (hover for why)</source>
        <translation>fehlgeschlagen (Grund beim Darüberfahren)</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="88"/>
        <source>Value of the parameter</source>
        <translation>Wert des Parameters</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="97"/>
        <source>Split length (log2 scale)</source>
        <translation>Split-Länge (log2-Skala)</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="97"/>
        <source>Unroll limit (auto_unroll_max_step)</source>
        <translation>Unroll-Limit (auto_unroll_max_step)</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="126"/>
        <source>the state&apos;s value (%1)</source>
        <translation>Wert des Zustands (%1)</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="147"/>
        <source>%1 (predicted)</source>
        <translation>%1 (vorhergesagt)</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="176"/>
        <source>%1 (the state&apos;s value): </source>
        <translation>%1 (Wert des Zustands): </translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="176"/>
        <source>%1: </source>
        <translation>%1: </translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="178"/>
        <source>%1 GFLOP/s, %2 ms</source>
        <translation>%1 GFLOP/s, %2 ms</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="180"/>
        <source>failed (%1): %2</source>
        <translation>fehlgeschlagen (%1): %2</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="184"/>
        <source>, record %1</source>
        <translation>, Datensatz %1</translation>
    </message>
    <message>
        <location filename="../widgets/sweep_plot.cpp" line="187"/>
        <source>%1 predicts %2</source>
        <translation>%1 sagt %2 vorher</translation>
    </message>
</context>
<context>
    <name>ts::widgets::TuningCurvePlot</name>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="62"/>
        <source>Best GFLOP/s</source>
        <translation>Beste GFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="63"/>
        <source>Latency (ms)</source>
        <translation>Latenz (ms)</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="87"/>
        <source>Wall time (h:mm:ss)</source>
        <translation>Verstrichene Zeit (h:mm:ss)</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="92"/>
        <source>Trials (this session)</source>
        <translation>Versuche (diese Sitzung)</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="175"/>
        <source>→ %1</source>
        <translation>→ %1</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="254"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="304"/>
        <source>manual</source>
        <translation>manuell</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="506"/>
        <source>Task %1: %2</source>
        <translation>Aufgabe %1: %2</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="509"/>
        <source>Trial %1 (the task&apos;s %2)</source>
        <translation>Versuch %1 (%2. der Aufgabe)</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="510"/>
        <source>%1 GFLOP/s, %2 µs</source>
        <translation>%1 GFLOP/s, %2 µs</translation>
    </message>
    <message>
        <location filename="../widgets/tuning_curve_plot.cpp" line="511"/>
        <source>Record %1</source>
        <translation>Datensatz %1</translation>
    </message>
</context>
</TS>

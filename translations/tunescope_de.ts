<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
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
        <location filename="../app/gui/main_window.cpp" line="48"/>
        <source>TuneScope</source>
        <translation>TuneScope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="50"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="51"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="14"/>
        <source>Explorer</source>
        <translation>Explorer</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="18"/>
        <source>Compute DAG</source>
        <translation>Berechnungsgraph</translation>
    </message>
    <message>
        <location filename="../app/gui/view_registry.cpp" line="22"/>
        <source>Task details</source>
        <translation>Aufgabendetails</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="101"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="105"/>
        <source>View</source>
        <translation>Ansicht</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="113"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="114"/>
        <source>&amp;About TuneScope</source>
        <translation>Über &amp;TuneScope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="115"/>
        <source>About TuneScope</source>
        <translation>Über TuneScope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="116"/>
        <source>TuneScope %1
A workbench for tuning tensor programs.</source>
        <translation>TuneScope %1
Eine Werkbank zum Optimieren von Tensorprogrammen.</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="153"/>
        <source>%1, task %2: %3 ops, %4 GFLOP, weight %5, key %6</source>
        <translation>%1, Aufgabe %2: %3 Operationen, %4 GFLOP, Gewicht %5, Schlüssel %6</translation>
    </message>
</context>
<context>
    <name>ts::app::TaskDagView</name>
    <message>
        <location filename="../app/gui/task_dag_view.cpp" line="19"/>
        <source>Select a task in the explorer to see its compute DAG.</source>
        <translation>Wählen Sie im Explorer eine Aufgabe, um ihren Berechnungsgraphen zu sehen.</translation>
    </message>
    <message>
        <location filename="../app/gui/task_dag_view.cpp" line="23"/>
        <source>%1 — task %2: %3</source>
        <translation>%1 — Aufgabe %2: %3</translation>
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
        <location filename="../widgets/models/network_task_model.cpp" line="199"/>
        <source>Network / task</source>
        <translation>Netz / Aufgabe</translation>
    </message>
    <message>
        <location filename="../widgets/models/network_task_model.cpp" line="201"/>
        <source>GFLOP</source>
        <translation>GFLOP</translation>
    </message>
    <message>
        <location filename="../widgets/models/network_task_model.cpp" line="203"/>
        <source>Weight</source>
        <translation>Gewicht</translation>
    </message>
</context>
<context>
    <name>ts::widgets::DagView</name>
    <message>
        <location filename="../widgets/dag_view.cpp" line="120"/>
        <source>Zoom &amp;In</source>
        <translation>Ver&amp;größern</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="123"/>
        <source>Zoom &amp;Out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="126"/>
        <source>&amp;Fit DAG</source>
        <translation>Graph &amp;einpassen</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="159"/>
        <source>input %1</source>
        <translation>Eingabe %1</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="177"/>
        <source>Layout failed: %1</source>
        <translation>Layout fehlgeschlagen: %1</translation>
    </message>
</context>
</TS>

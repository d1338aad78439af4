<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ts::app::MainWindow</name>
    <message>
        <location filename="../app/gui/main_window.cpp" line="32"/>
        <source>TuneScope</source>
        <translation>TuneScope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="35"/>
        <location filename="../app/gui/main_window.cpp" line="138"/>
        <source>Select a task in the explorer to see its compute DAG.</source>
        <translation>Wählen Sie im Explorer eine Aufgabe, um ihren Berechnungsgraphen zu sehen.</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="36"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="37"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="49"/>
        <source>Explorer</source>
        <translation>Explorer</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="61"/>
        <source>Batch</source>
        <translation>Batchgröße</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="62"/>
        <source>Layout</source>
        <translation>Layout</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="77"/>
        <source>Task details</source>
        <translation>Aufgabendetails</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="102"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="105"/>
        <source>View</source>
        <translation>Ansicht</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="107"/>
        <source>Zoom &amp;In</source>
        <translation>Ver&amp;größern</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="110"/>
        <source>Zoom &amp;Out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="113"/>
        <source>&amp;Fit DAG</source>
        <translation>Graph &amp;einpassen</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="121"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="122"/>
        <source>&amp;About TuneScope</source>
        <translation>Über &amp;TuneScope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="123"/>
        <source>About TuneScope</source>
        <translation>Über TuneScope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="124"/>
        <source>TuneScope %1
A workbench for tuning tensor programs.</source>
        <translation>TuneScope %1
Eine Werkbank zum Optimieren von Tensorprogrammen.</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="164"/>
        <source>%1 — task %2: %3</source>
        <translation>%1 — Aufgabe %2: %3</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="166"/>
        <source>%1, task %2: %3 ops, %4 GFLOP, weight %5, key %6</source>
        <translation>%1, Aufgabe %2: %3 Operationen, %4 GFLOP, Gewicht %5, Schlüssel %6</translation>
    </message>
</context>
<context>
    <name>ts::widgets::DagView</name>
    <message>
        <location filename="../widgets/dag_view.cpp" line="136"/>
        <source>input %1</source>
        <translation>Eingabe %1</translation>
    </message>
    <message>
        <location filename="../widgets/dag_view.cpp" line="154"/>
        <source>Layout failed: %1</source>
        <translation>Layout fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>ts::widgets::NetworkTaskModel</name>
    <message>
        <location filename="../widgets/network_task_model.cpp" line="169"/>
        <source>Network / task</source>
        <translation>Netz / Aufgabe</translation>
    </message>
    <message>
        <location filename="../widgets/network_task_model.cpp" line="171"/>
        <source>GFLOP</source>
        <translation>GFLOP</translation>
    </message>
    <message>
        <location filename="../widgets/network_task_model.cpp" line="173"/>
        <source>Weight</source>
        <translation>Gewicht</translation>
    </message>
</context>
</TS>

<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ts::app::MainWindow</name>
    <message>
        <location filename="../app/gui/main_window.cpp" line="32"/>
        <source>TuneScope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="35"/>
        <location filename="../app/gui/main_window.cpp" line="136"/>
        <source>Select a task in the explorer to see its compute DAG.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="36"/>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="37"/>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="49"/>
        <source>Explorer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="61"/>
        <source>Batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="62"/>
        <source>Layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="75"/>
        <source>Task details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="100"/>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="103"/>
        <source>View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="105"/>
        <source>Zoom &amp;In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="108"/>
        <source>Zoom &amp;Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="111"/>
        <source>&amp;Fit DAG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="119"/>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="120"/>
        <source>&amp;About TuneScope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="121"/>
        <source>About TuneScope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="122"/>
        <source>TuneScope %1
A workbench for tuning tensor programs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="164"/>
        <source>%1 — task %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="166"/>
        <source>%1, task %2: %3 ops, %4 GFLOP, weight %5, key %6</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>

#!/usr/bin/env python3
"""The peers Almanac's CSV reader and converter are measured against.

    csv_bench.py python-read FILE     Python's csv module: every field of every record
    csv_bench.py python-copy FILE     Python's csv module reading and writing every record (no model)
    csv_bench.py duckdb FILE          DuckDB on one thread, every column as text, materialized
    csv_bench.py duckdb-count FILE    DuckDB on one thread counting the records
    csv_bench.py polars FILE          polars, every column as text (POLARS_MAX_THREADS decides threads)
    csv_bench.py duckdb-json FILE OUT DuckDB (all cores) COPY … TO OUT (FORMAT JSON): one object a line
    csv_bench.py duckdb-tsv FILE OUT  DuckDB (all cores) COPY … TO OUT as tab-separated text
    csv_bench.py duckdb-inspect FILE  DuckDB (all cores) counting the records, every column as text
"""
import csv, os, sys

mode, path = sys.argv[1], sys.argv[2]
if mode == "python-read":
    rows = fields = 0
    with open(path, newline="", encoding="utf-8-sig") as f:
        for record in csv.reader(f):
            rows += 1
            fields += len(record)
    print("rows %d fields %d" % (rows, fields))
elif mode == "python-copy":
    rows = 0
    with open(path, newline="", encoding="utf-8-sig") as f, open(os.devnull, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        for record in csv.reader(f):
            writer.writerow(record)
            rows += 1
    print("rows %d" % rows)
elif mode == "duckdb":
    import duckdb
    con = duckdb.connect()
    con.execute("SET threads = 1")
    con.execute("CREATE TABLE t AS SELECT * FROM read_csv(?, all_varchar = true, header = true)", [path])
    print("rows %d" % con.execute("SELECT count(*) FROM t").fetchone()[0])
elif mode == "duckdb-count":
    import duckdb
    con = duckdb.connect()
    con.execute("SET threads = 1")
    print("rows %d" % con.execute("SELECT count(*) FROM read_csv(?, all_varchar = true, header = true)", [path]).fetchone()[0])
elif mode == "polars":
    import polars
    frame = polars.read_csv(path, infer_schema=False)
    print("rows %d" % frame.height)
elif mode in ("duckdb-json", "duckdb-tsv"):
    import duckdb
    out = sys.argv[3]
    con = duckdb.connect()
    format = "(FORMAT JSON)" if mode == "duckdb-json" else "(FORMAT CSV, DELIMITER '\t', HEADER)"
    con.execute("COPY (SELECT * FROM read_csv('%s', all_varchar = true, header = true)) TO '%s' %s" % (path, out, format))
    print("bytes %d" % os.path.getsize(out))
elif mode == "duckdb-inspect":
    import duckdb
    con = duckdb.connect()
    print("rows %d" % con.execute("SELECT count(*) FROM read_csv(?, all_varchar = true, header = true)", [path]).fetchone()[0])
else:
    sys.exit("unknown mode " + mode)

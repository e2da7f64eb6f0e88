#!/usr/bin/env python3
"""The Spark job on local[2] against `almanac convert DIR -o OUT` on one machine.

    python3 Integrations/spark/tests/test_almanac_spark.py [-v]

Needs Java 17 and pyspark; the almanac binary from $ALMANAC, else .build/release/almanac, else
.build/debug/almanac. 300 exports from Benchmarks/ics_folder.py, one cut off (--corrupt 150).
"""
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.dirname(HERE))
import almanac_spark  # noqa: E402

FILES = 300
CORRUPT = 150
STAMP = "exported-at=2026-01-01T00:00:00Z"  # a backup says when it was made: fixed, so runs compare


def almanac_binary():
    for candidate in [os.environ.get("ALMANAC"), os.path.join(ROOT, ".build/release/almanac"), os.path.join(ROOT, ".build/debug/almanac")]:
        if candidate and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    raise unittest.SkipTest("almanac is not built: swift build -c release --product almanac")


def tree(folder):
    """Every file under folder, relative, sorted (temporary files included: none may be left)."""
    found = []
    for base, _, names in os.walk(folder):
        found += [os.path.relpath(os.path.join(base, name), folder) for name in names]
    return sorted(found)


class SparkJobTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.almanac = almanac_binary()
        cls.work = tempfile.mkdtemp(prefix="almanac-spark-test-")
        cls.inputs = os.path.join(cls.work, "exports")
        subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks/ics_folder.py"), str(FILES), cls.inputs, "--corrupt", str(CORRUPT)],
                       check=True)
        # The single-machine run that the Spark job must match byte for byte.
        cls.expected = os.path.join(cls.work, "one-machine")
        single = subprocess.run([cls.almanac, "convert", cls.inputs, "-o", cls.expected, "--to", "retiretime-backup", "--option", STAMP],
                                capture_output=True, text=True)
        assert single.returncode == 3, single.stderr[-2000:]
        # Workers killed in the retry test are found through these (the executors inherit them).
        os.environ["ALMANAC_REAL"] = cls.almanac
        os.environ["ALMANAC_KILL_MARKER"] = os.path.join(cls.work, "killed-once")
        from pyspark.sql import SparkSession
        # local[2, 4]: two cores, and a failed task is tried up to four times (local[2] never retries).
        cls.spark = (SparkSession.builder.master("local[2,4]").appName("almanac-spark-test")
                     .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "4").getOrCreate())
        cls.spark.sparkContext.setLogLevel("ERROR")

    @classmethod
    def tearDownClass(cls):
        cls.spark.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def run_job(self, name, *extra, almanac=None):
        output = os.path.join(self.work, name)
        report = os.path.join(self.work, name + "-report")
        settings = almanac_spark.parse_args(["--input", self.inputs, "--output", output, "--to", "retiretime-backup", "--report", report,
                                             "--almanac", almanac or self.almanac, "--option", STAMP, *extra])
        totals = almanac_spark.run(self.spark, settings)
        return output, report, totals

    def assertSameOutputs(self, output):
        self.assertEqual(tree(output), tree(self.expected))
        match, mismatch, errors = filecmp.cmpfiles(self.expected, output, tree(self.expected), shallow=False)
        self.assertEqual((mismatch, errors), ([], []))
        self.assertEqual(len(match), FILES - 1)

    def test_the_job_writes_what_one_machine_writes(self):
        output, report, totals = self.run_job("spark")
        self.assertSameOutputs(output)
        self.assertEqual((totals["files"], totals["converted"], totals["skipped"], totals["failed"]), (FILES, FILES - 1, 0, 1))
        self.assertEqual(totals["failed_by_code"], {"ics.truncated": 1})
        rows = self.spark.read.parquet(report + "/files")
        failed = rows.where("status = 'failed'").collect()
        self.assertEqual(len(failed), 1)
        self.assertTrue(failed[0]["input"].endswith("-%05d.ics" % CORRUPT))
        self.assertEqual(failed[0]["code"], "ics.truncated")
        self.assertIsNotNone(failed[0]["line"])
        self.assertEqual(rows.where("status = 'converted' and records > 0").count(), FILES - 1)
        with open(tree_file(report + "/totals")) as handle:
            self.assertEqual(json.loads(handle.read())["converted"], FILES - 1)
        # A second run is a rerun: everything exists and is skipped; the report is not replaced without --force.
        with self.assertRaises(Exception):
            self.run_job("spark")
        _, _, again = self.run_job("spark", "--force")
        self.assertEqual(again["converted"], FILES - 1)

    def test_a_killed_worker_is_retried_and_leaves_no_partial_file(self):
        killer = os.path.join(HERE, "kill_first_worker.py")
        output, report, totals = self.run_job("spark-killed", almanac=killer)
        self.assertTrue(os.path.exists(os.environ["ALMANAC_KILL_MARKER"]), "no worker was killed")
        self.assertSameOutputs(output)  # no .tmp file, nothing missing, the same bytes
        self.assertEqual(totals["failed"], 1)
        self.assertEqual(totals["converted"] + totals["skipped"], FILES - 1)
        rows = self.spark.read.parquet(report + "/files")
        self.assertEqual(rows.count(), FILES)
        # The retried partition ran a second attempt, which skipped what the first had written.
        retried = rows.where("attempt > 0").collect()
        self.assertTrue(retried)
        self.assertTrue(any(row["status"] == "skipped" for row in retried))

    def test_inputs_copied_to_the_executors(self):
        output, report, totals = self.run_job("spark-staged", "--stage")
        self.assertSameOutputs(output)
        self.assertEqual(totals["failed_by_code"], {"ics.truncated": 1})
        failed = self.spark.read.parquet(report + "/files").where("status = 'failed'").collect()
        self.assertTrue(failed[0]["input"].startswith("file:" + self.inputs))

    def test_spark_submit_with_the_worker_shipped_by_files(self):
        """The Scale-out article's command: the binary passed with --files and found by its name."""
        import pyspark
        submit = shutil.which("spark-submit") or os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-submit")
        output = os.path.join(self.work, "submitted")
        result = subprocess.run([submit, "--master", "local[2]", "--conf", "spark.ui.enabled=false", "--conf", "spark.ui.showConsoleProgress=false",
                                 "--files", self.almanac, os.path.join(os.path.dirname(HERE), "almanac_spark.py"),
                                 "--input", self.inputs, "--output", output, "--to", "retiretime-backup", "--report", output + "-report",
                                 "--almanac", os.path.basename(self.almanac), "--option", STAMP],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr[-3000:])
        totals = json.loads(result.stdout.strip().splitlines()[-1])
        self.assertEqual((totals["converted"], totals["failed_by_code"]), (FILES - 1, {"ics.truncated": 1}))
        self.assertSameOutputs(output)


def tree_file(folder):
    return os.path.join(folder, next(name for name in os.listdir(folder) if name.startswith("part-")))


if __name__ == "__main__":
    unittest.main()

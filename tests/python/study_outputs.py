"""Made-up study outputs for the seed scripts' --plot-only tests: what scripts/study.py leaves behind."""
import csv
import json


def write_study(root, name, axes, points, run_files=lambda summ: {}):
    """points: [(axis values, summary)] -> studies/NAME/runs.csv and results.csv, and runs/NAME_i/ per point with
    its summary.json and the files run_files(summary) gives ({file name: text})."""
    d = root / "studies" / name
    d.mkdir(parents=True)
    with open(d / "runs.csv", "w", newline="") as r, open(d / "results.csv", "w", newline="") as s:
        runs = csv.DictWriter(r, fieldnames=["point", "run_dir"])
        results = csv.DictWriter(s, fieldnames=["point", "status"] + axes)
        runs.writeheader()
        results.writeheader()
        for i, (values, summ) in enumerate(points):
            run_dir = root / "runs" / ("%s_%d" % (name, i))
            run_dir.mkdir(parents=True)
            (run_dir / "summary.json").write_text(json.dumps(summ))
            for file_name, text in run_files(summ).items():
                (run_dir / file_name).write_text(text)
            runs.writerow({"point": i, "run_dir": str(run_dir)})
            results.writerow(dict(values, point=i, status="ok"))

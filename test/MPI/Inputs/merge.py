"""Writes one format v1 module holding the types of several files.

The emitted-code tests compile one library per module; merging the
fixtures spends one compiler run per variant instead of one per file. A name
an earlier file already defined is prefixed with its file's stem, in the
type and in every reference to it within its own file.

    python3 merge.py FILE.json... > merged.json
"""
import json
import os
import sys


def main(paths):
    defined = set()
    merged = []
    for path in paths:
        with open(path) as f:
            types = json.load(f)["types"]
        stem = os.path.basename(path).rsplit(".", 1)[0].replace("-", "_")
        rename = {t["name"]: stem + "_" + t["name"]
                  for t in types if t["name"] in defined}

        def renamed(value):
            if isinstance(value, dict):
                return {k: renamed(v) for k, v in value.items()}
            if isinstance(value, list):
                return [renamed(v) for v in value]
            if isinstance(value, str):
                return rename.get(value, value)
            return value

        for t in types:
            t = renamed(t)
            defined.add(t["name"])
            merged.append(t)
    json.dump({"ddtc": 1, "types": merged}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])

"""The statistics every benchmark summary in bench/ takes, defined once.

A benchmark compares two or more ways of doing the same thing side by side
in one run: in one process, or in launches that alternate the ways
(bench/lib.sh). On a shared machine a whole launch can run fast or slow, so
a ratio is taken within a launch and then combined over launches; the
summaries read their launches and combine their figures with these:

  median(xs)               the median (the mean of the middle two of an even
                           count), the statistic of every benchmark's runs
  geomean(xs)              the geometric mean, of speedups and other ratios
  spread(xs)               median, mean, min and max of a series of runs
  paired_ratio(a, b)       the median over launches of each launch's a / b
  launch_files(dir, way, ext)
                           {launch: path} of the files DIR/WAY-L.EXT that a
                           rotation writes, one per launch L

A summary in a family folder imports this module as

  sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
  import stats
"""
import math
import os
import re
import statistics


def median(xs):
    return statistics.median(list(xs))


def geomean(xs):
    """The geometric mean of positive values; nan for none."""
    xs = list(xs)
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def spread(xs):
    """(median, mean, min, max) of a series, as seed 000 reports its runs."""
    xs = list(xs)
    return statistics.median(xs), statistics.fmean(xs), min(xs), max(xs)


def paired_ratio(a, b):
    """The median over launches of a[i] / b[i]: a and b hold one figure per
    launch, in launch order, so both sides of each ratio come from the same
    launch (the same fast or slow spell of the machine). Launches that only
    one side has are left out."""
    return statistics.median(x / y for x, y in zip(a, b))


def launch_files(directory, way, ext):
    """{L: path} for every DIR/WAY-L.EXT (L a launch number) in DIR."""
    name = re.compile(r"%s-(\d+)\.%s$" % (re.escape(way), re.escape(ext)))
    found = {}
    for entry in os.listdir(directory):
        m = name.match(entry)
        if m:
            found[int(m.group(1))] = os.path.join(directory, entry)
    return dict(sorted(found.items()))

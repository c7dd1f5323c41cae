#!/bin/sh
# The benchmark of libddtc_rt.so (docs/performance.md, "Runtime
# substitution"): the same MPI program (RtPingPong.cpp, which knows
# nothing of ddtc's kernels) run plain and with the runtime preloaded, on
# 2 ranks with MPICH.
#
#   sh bench/runtime/rt-pingpong.sh BUILD_DIR [RUNS]
#
# 1. Emits the kernels of every file of the DDTBench corpus (`ddtc emit`,
#    one `g++ -O2 -shared -fPIC` library per file, all given to
#    DDTC_KERNELS).
# 2. Ping-pong of one instance of every corpus type: RUNS (default 10)
#    pairs of mpiexec calls, plain and under the runtime one after the
#    other (which goes first alternates), each a run of seed 000's (docs/design.md#references) method
#    (--runs 1: the median of nrep ping-pongs). Over the RUNS runs: the
#    median, mean, min and max of those medians; speedup = plain median /
#    runtime median; the geometric mean of the speedups. The table says
#    per type whether the runtime's report shows it substituted, or why not
#    (the runtime's settings, e.g. DDTC_RT_TYPED_BLOCKS, pass through mpiexec).
# 3. Commit: MPI_Type_commit of every corpus type, plain and under the
#    runtime, on 1 rank, RUNS pairs of runs: the first commit of each type
#    in the process (under the runtime: decode, normalize, look up), then 5
#    more (which may find the layout key cached).
# 4. Per-call overhead on a type without a kernel: a vector of 2 doubles,
#    10,000 ping-pongs per run, plain and under the runtime with the kernel
#    library of another file (NAS_LU_x); the report must show the type
#    passed through.
#
# Prints the tables; writes docs/figures/rt-pingpong.csv and draws
# docs/figures/rt-pingpong.png and .svg (PYTHON, default /usr/bin/python3,
# with matplotlib: apt-get install python3-matplotlib); RT_PINGPONG_OUT=PREFIX
# writes PREFIX.csv, .png, .svg instead (for experiments, e.g. with
# UCX_RNDV_THRESH set: mpiexec passes the environment on). The raw
# outputs of every run stay in BUILD_DIR/bench/rt-pingpong/.
#
# BUILD_DIR holds tools/ddtc/ddtc, bench/ddtc-rt-pingpong and
# lib/Runtime/libddtc_rt.so (configured with DDTC_ENABLE_MPI; e.g.
# cmake --build build --target ddtc ddtc_rt ddtc-rt-pingpong).
set -e
build=$(cd "${1:?usage: rt-pingpong.sh BUILD_DIR [RUNS]}" && pwd)
runs=${2:-10}
src=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$src/corpus/ddtbench
out=$build/bench/rt-pingpong
ddtc=$build/tools/ddtc/ddtc
bench=$build/bench/ddtc-rt-pingpong
rt=$build/lib/Runtime/libddtc_rt.so
fig=${RT_PINGPONG_OUT:-$src/docs/figures/rt-pingpong}
rm -rf "$out"
mkdir -p "$out" "$(dirname "$fig")"

kernels=$(sh "$src/bench/runtime/corpus-kernels.sh" "$ddtc" "$corpus" "$out")
cat > "$out/small.json" <<'EOF'
{"ddtc": 1, "types": [{"name": "vector2_double", "kind": "vector", "count": 2,
  "blocklength": 1, "stride": 2, "oldtype": "MPI_DOUBLE"}]}
EOF

mpich=$(mpichversion | sed -n 's/^MPICH \(Version\|Device\):[[:space:]]*//p' | tr -d '\t' | tr '\n' ' ')
echo "# $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; MPICH ${mpich}; runs: $runs"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# One run of MODE (plain or rt) with KERNELS, ranks NP, output OUT.
run() {
  mode=$1 libs=$2 np=$3 output=$4
  shift 4
  if [ "$mode" = plain ]; then
    mpiexec.mpich -n "$np" "$bench" "$@" > "$output"
  else
    mpiexec.mpich -n "$np" env LD_PRELOAD="$rt" DDTC_KERNELS="$libs" \
      DDTC_RT_REPORT="$output.report-%r.json" "$bench" "$@" > "$output"
  fi
}
# RUNS pairs of runs, plain and runtime, alternating which goes first.
pairs() {
  tag=$1 libs=$2 np=$3
  shift 3
  for i in $(seq "$runs"); do
    if [ $((i % 2)) = 1 ]; then order="plain rt"; else order="rt plain"; fi
    for mode in $order; do
      run "$mode" "$libs" "$np" "$out/$tag-$mode-$i.csv" "$@"
    done
  done
}

pairs pingpong "$kernels" 2 --runs 1 "$corpus"/*.json
pairs commit "$kernels" 1 --commit --runs 1 --commit-reps 5 "$corpus"/*.json
pairs overhead "$out/NAS_LU_x.so" 2 --runs 1 --nrep 10000 "$out/small.json"
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"

"${PYTHON:-/usr/bin/python3}" - "$out" "$runs" "$fig" <<'EOF'
import csv, json, math, statistics, sys

out, runs, fig = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def load(tag, mode):
    """{name: {column: [value per run]}} over the RUNS runs of tag/mode."""
    rows = {}
    for i in range(1, runs + 1):
        with open("%s/%s-%s-%d.csv" % (out, tag, mode, i)) as f:
            for r in csv.DictReader(f):
                d = rows.setdefault(r["name"], {"bytes": int(r["bytes"])})
                for k, v in r.items():
                    if k not in ("name", "bytes"):
                        d.setdefault(k, []).append(float(v))
    return rows

def stats(v):
    """Seed 000: median, mean, min and max of the runs' medians."""
    return (statistics.median(v), statistics.fmean(v), min(v), max(v))

def report(tag, mode):
    with open("%s/%s-%s-1.csv.report-0.json" % (out, tag, mode)) as f:
        return {t["name"]: t for t in json.load(f)["types"]}

# Ping-pong.
plain, rt = load("pingpong", "plain"), load("pingpong", "rt")
subst = report("pingpong", "rt")
rows = []
for name, p in plain.items():
    r = rt[name]
    t = subst.get(name, {})
    if t.get("kernel") and t.get("substituted"):
        how = "yes"
    elif t.get("typed_large_blocks"):
        how = "no: left to MPI by DDTC_RT_TYPED_BLOCKS"
    else:
        how = "no: " + t.get("reason", "not in the report")
    ps, rs = stats(p["type_median"]), stats(r["type_median"])
    pr, rr = stats(p["ref_median"]), stats(r["ref_median"])
    rows.append((name, p["bytes"], how, ps, rs, pr, rr, ps[0] / rs[0]))
geo = math.exp(statistics.fmean(math.log(x[-1]) for x in rows))

print("\n## Ping-pong of one instance (round trip, us; median of %d runs' "
      "medians, [min-max])\n" % runs)
print("| type | bytes | plain us | runtime us | speedup | contiguous us (plain, runtime) | substituted |")
print("|---|--:|--:|--:|--:|--:|---|")
def rng(s):
    return "%.2f [%.2f-%.2f]" % (s[0], s[2], s[3])
for name, b, how, ps, rs, pr, rr, sp in rows:
    print("| %s | %d | %s | %s | %.2f | %.2f, %.2f | %s |" %
          (name, b, rng(ps), rng(rs), sp, pr[0], rr[0], how))
print("\ngeometric mean of the speedups: %.2f (%d types)" % (geo, len(rows)))

with open(fig + ".csv", "w", newline="") as f:
    w = csv.writer(f)
    cols = ["median", "mean", "min", "max"]
    w.writerow(["name", "bytes", "substituted"] +
               ["%s_%s_us" % (what, c)
                for what in ("plain", "runtime", "plain_contig", "runtime_contig")
                for c in cols] + ["speedup"])
    for name, b, how, ps, rs, pr, rr, sp in rows:
        w.writerow([name, b, how] + ["%.3f" % x for x in ps + rs + pr + rr] +
                   ["%.3f" % sp])

# Commit.
cp, cr = load("commit", "plain"), load("commit", "rt")
print("\n## MPI_Type_commit (us; first commit of the type in the process: "
      "median [min-max] of %d runs; later commits: median of the runs' "
      "medians of 5)\n" % runs)
print("| type | plain first | runtime first | plain later | runtime later |")
print("|---|--:|--:|--:|--:|")
for name, p in cp.items():
    r = cr[name]
    print("| %s | %s | %s | %.2f | %.2f |" %
          (name, rng(stats(p["first"])), rng(stats(r["first"])),
           stats(p["commit_median"])[0], stats(r["commit_median"])[0]))

# Overhead on a type without a kernel.
op, orr = load("overhead", "plain"), load("overhead", "rt")
t = report("overhead", "rt").get("vector2_double", {})
if t.get("kernel") or not t.get("passed_through"):
    sys.exit("error: vector2_double was not passed through: %s" % t)
print("\n## A type without a kernel (vector of 2 doubles, 10,000 ping-pongs "
      "per run; round trip, us; median of %d runs' medians [min-max])\n" % runs)
print("| message | plain us | runtime us | difference ns |")
print("|---|--:|--:|--:|")
for col, what in (("type_median", "vector2_double (passed through)"),
                  ("ref_median", "16 MPI_BYTE (predefined)")):
    a = stats(op["vector2_double"][col])
    b = stats(orr["vector2_double"][col])
    print("| %s | %s | %s | %.0f |" % (what, rng(a), rng(b), (b[0] - a[0]) * 1000))
print("\nreason in the report: %s; passed through: %d calls on rank 0" %
      (t.get("reason"), t.get("passed_through")))

# Figure: times with the runs' min-max as error bars, and speedups.
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
names = [x[0] for x in rows]
xs = range(len(rows))
fig_, (ax, ax2) = plt.subplots(2, 1, figsize=(11, 7.5), sharex=True,
                               gridspec_kw={"height_ratios": [3, 2]})
wd = 0.27
for k, (label, idx, color) in enumerate((("MPICH (plain)", 3, "#888888"),
                                         ("libddtc_rt.so", 4, "#1f77b4"),
                                         ("contiguous, same bytes (plain)", 5, "#dddddd"))):
    med = [x[idx][0] for x in rows]
    err = [[x[idx][0] - x[idx][2] for x in rows], [x[idx][3] - x[idx][0] for x in rows]]
    # A runtime bar is hatched where the runtime passed the type through.
    hatch = ["//" if idx == 4 and not x[2].startswith("yes") else None
             for x in rows]
    ax.bar([i + (k - 1) * wd for i in xs], med, wd, yerr=err, capsize=2,
           label=label, color=color, edgecolor="black", linewidth=0.4,
           hatch=hatch)
ax.set_yscale("log")
ax.set_ylabel("ping-pong round trip (us)")
ax.set_title("Ping-pong of one instance, 2 ranks, MPICH 4.0.2: median of %d runs "
             "(bars: min-max; hatched: passed through)" % runs)
ax.legend(fontsize=8)
ax.grid(axis="y", which="both", alpha=0.3)
sp = [x[-1] for x in rows]
ax2.bar(xs, [s - 1 for s in sp], 0.6, bottom=1, color=["#1f77b4" if s >= 1 else "#d62728" for s in sp],
        edgecolor="black", linewidth=0.4)
for i, s in zip(xs, sp):
    ax2.text(i, max(s, 1) * 1.06, "%.2f" % s, ha="center", fontsize=7)
ax2.axhline(1, color="black", linewidth=0.8)
ax2.axhline(geo, color="#2ca02c", linestyle="--", linewidth=1,
            label="geometric mean %.2fx" % geo)
ax2.set_yscale("log")
ax2.set_yticks([0.5, 1, 2, 3, 5, 10, 20])
ax2.set_yticklabels(["0.5", "1", "2", "3", "5", "10", "20"])
ax2.set_ylim(min(0.4, min(sp) * 0.9), max(20, max(sp) * 1.1))
ax2.set_ylabel("speedup (plain / runtime)")
ax2.legend(fontsize=8)
ax2.grid(axis="y", alpha=0.3)
ax2.set_xticks(list(xs))
ax2.set_xticklabels(names, rotation=45, ha="right", fontsize=8)
fig_.tight_layout()
fig_.savefig(fig + ".png", dpi=110)
fig_.savefig(fig + ".svg")
print("\nwrote %s.csv, %s.png, %s.svg" % (fig, fig, fig))
EOF

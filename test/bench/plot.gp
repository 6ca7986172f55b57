# Plots part 6 of bench.sh: insert throughput against table size, one line
# per generator. Usage: gnuplot -c plot.gp DATA.tsv OUT.png TITLE
# DATA has a header, then "generator <tab> rows <tab> tps <tab> ..." lines.
set terminal pngcairo size 1000,600 noenhanced font ",11"
set output ARG2
set datafile separator "\t"
set title ARG3
set xlabel "rows in the table when the run started (millions)"
set ylabel "single-row inserts per second (pgbench TPS)"
set key outside right top
set grid
set yrange [0:*]
set format y "%.0f"
# The generators, in the order the data lists them.
generators = system(sprintf("awk -F'\t' 'NR > 1 && !seen[$1]++ { printf \"%%s \", $1 }' '%s'", ARG1))
# Rows of other generators are undefined for a line, so each line joins only its own points.
plot for [g in generators] ARG1 skip 1 using ($2 / 1e6):(strcol(1) eq g ? $3 : NaN) \
    with linespoints linewidth 2 pointsize 1.2 title g

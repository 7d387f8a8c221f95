set terminal pngcairo noenhanced size 900,560
set output 'docs/results/v10-bench-xeon/curves.png'
set title 'Best latency vs trials (geomean over workloads, relative to the best found)'
set xlabel 'measured trials'
set ylabel 'best latency / best found'
set logscale y
set key top right
plot 'docs/results/v10-bench-xeon/curves.dat' using 1:2 with lines lw 2 title 'world', 'docs/results/v10-bench-xeon/curves.dat' using 1:3 with lines lw 2 title 'static', 'docs/results/v10-bench-xeon/curves.dat' using 1:4 with lines lw 2 title 'world-initial'

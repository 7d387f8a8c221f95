set terminal pngcairo noenhanced size 900,560
set output 'docs/results/v10-bench-xeon/speedups.png'
set title 'world@64 speedup over static@64 per workload'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -45
set ylabel 'speedup (x)'
set yrange [0:*]
plot 'docs/results/v10-bench-xeon/speedups.dat' using 0:2:xtic(1) with boxes notitle, 1 with lines dt 2 notitle

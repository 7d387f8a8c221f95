set terminal pngcairo noenhanced size 900,560
set output 'docs/results/v4-bench-zen5/efficiency/efficiency.png'
set title 'Sample efficiency: best latency relative to static@640'
set xlabel 'measured trials'
set ylabel 'best latency / static@640'
set logscale xy
plot 'docs/results/v4-bench-zen5/efficiency/efficiency.dat' using 1:2 with lines lw 2 title 'static', 'docs/results/v4-bench-zen5/efficiency/efficiency.dat' using 1:3 with lines lw 2 title 'world'

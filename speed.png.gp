set terminal pngcairo size 900,600 noenhanced
set output 'speed.png'
set datafile separator ','
set logscale xy
set grid
set key top left
set xlabel 'observations n'
set ylabel 'ask+tell median [ms]'
set title 'addbo: library time per ask+tell (fixed graph, grid 32)'
plot 'speed.csv' using 3:(strcol(1) eq 'star10' ? $4 : NaN) with linespoints lw 2 title 'star10'

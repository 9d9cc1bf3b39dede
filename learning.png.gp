set terminal pngcairo size 900,600 noenhanced
set output 'learning.png'
set datafile separator ','
set logscale xy
set grid
set key top left
set xlabel 'observations n'
set ylabel 'first learning ask [s]'
set title 'addbo: the ask that learns, default settings'
plot 'learning.csv' using 2:($1 == 10 ? $5 : NaN) with linespoints lw 2 title 'D = 10', 'learning.csv' using 2:($1 == 30 ? $5 : NaN) with linespoints lw 2 title 'D = 30', 'learning.csv' using 2:($1 == 60 ? $5 : NaN) with linespoints lw 2 title 'D = 60', 'learning.csv' using 2:($1 == 20 ? $5 : NaN) with linespoints lw 2 title 'D = 20'

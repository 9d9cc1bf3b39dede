#include "walker_plot.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "output_files.hpp"

namespace box2d_walker {

using addbo_examples::format_number;
using addbo_examples::open_output;
using addbo_examples::shell_quote;

namespace {

// One segment per line, "x y dx dy time", as gnuplot's `with vectors` reads it.
void write_segment(std::ofstream& out, const std::array<double, 2>& a,
                   const std::array<double, 2>& b, double time) {
  out << format_number(a[0], 6) << ' ' << format_number(a[1], 6) << ' '
      << format_number(b[0] - a[0], 6) << ' ' << format_number(b[1] - a[1], 6) << ' '
      << format_number(time, 4) << '\n';
}

}  // namespace

int plot_run(const std::string& png, const std::vector<double>& values, int in_flight,
             const Walk& best) {
  const std::string script_path = png + ".gp";
  std::ofstream script = open_output(script_path);
  script << "# Written by box2d_walker: the values told and the best walker's gait.\n";
  script << "$values << EOD\n";
  double best_so_far = -1e300;
  for (std::size_t i = 0; i < values.size(); ++i) {
    best_so_far = std::max(best_so_far, values[i]);
    script << i + 1 << ' ' << format_number(values[i], 6) << ' ' << format_number(best_so_far, 6)
           << '\n';
  }
  script << "EOD\n$gait << EOD\n";
  for (const Pose& pose : best.poses) {
    for (int c = 0; c < 4; ++c)
      write_segment(script, pose.torso[c], pose.torso[(c + 1) % 4], pose.time);
    for (const auto& leg : pose.legs) {
      write_segment(script, leg[0], leg[1], pose.time);
      write_segment(script, leg[1], leg[2], pose.time);
    }
  }
  const double seconds = best.poses.empty() ? 1.0 : best.poses.back().time;
  script << "EOD\n"
         << "set terminal pngcairo size 1000,640 font 'Sans,10'\n"
         << "set output " << '"' << png << '"' << "\n"
         << "set multiplot\n"
         << "set origin 0,0.42\nset size 1,0.58\n"
         << "set title 'values told (" << in_flight << " in flight) and the best so far'\n"
         << "set xlabel 'evaluation'\nset ylabel 'distance walked (m)'\nset grid\n"
         << "set key bottom right\n"
         << "plot $values using 1:2 with points pt 7 ps 0.5 lc rgb '#8080c0' title 'value told', "
            "$values using 1:3 with lines lw 2 lc rgb '#c03030' title 'best so far'\n"
         << "set title sprintf('the best gait: %.2f m in %.0f s', "
         << format_number(best.distance, 6) << ", " << format_number(seconds, 4) << ")\n"
         << "set origin 0,0\nset size 1,0.42\n"
         << "set xlabel 'x (m)'\nset ylabel 'y (m)'\nset size ratio -1\nunset grid\n"
         << "set ytics 0.5\nset cbtics 2\nunset key\n"
         << "set cbrange [0:" << format_number(seconds, 4) << "]\nset cblabel 'time (s)'\n"
         << "set palette defined (0 '#2040a0', 1 '#20a060', 2 '#e0a020')\n"
         << "set arrow from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#606060' lw 2\n"
         << "plot $gait using 1:2:3:4:5 with vectors nohead lw 1.5 lc palette notitle\n"
         << "unset multiplot\n";
  script.close();
  if (std::system("gnuplot --version > /dev/null 2>&1") != 0) {
    std::fprintf(stderr,
                 "box2d_walker: gnuplot is not installed (Debian: gnuplot-nox); the "
                 "script is %s\n",
                 script_path.c_str());
    return 3;
  }
  if (std::system(("gnuplot " + shell_quote(script_path)).c_str()) != 0) {
    std::fprintf(stderr, "box2d_walker: gnuplot failed on %s\n", script_path.c_str());
    return 1;
  }
  return 0;
}

}  // namespace box2d_walker

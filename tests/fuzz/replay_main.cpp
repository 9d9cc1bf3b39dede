// A main() for the fuzz targets in builds without libFuzzer (gcc, the ASan build): runs the
// target once on each file named, and on every file of each directory named (in name order),
// as libFuzzer does with -runs=0. ctest fuzz_<target>_corpus runs the seed corpus and the
// regression inputs this way, so every build checks them.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool run_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "cannot read %s\n", path.string().c_str());
    return false;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(file)),
                                std::istreambuf_iterator<char>());
  std::fprintf(stderr, "running %s (%zu bytes)\n", path.string().c_str(), bytes.size());
  // A copy in a buffer of its own size, so that ASan sees a read past the input.
  std::vector<std::uint8_t> input(bytes.begin(), bytes.end());
  static std::uint8_t nothing = 0;
  LLVMFuzzerTestOneInput(input.empty() ? &nothing : input.data(), input.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
    return 2;
  }
  std::size_t inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path(argv[i]);
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(path);
    }
    for (const auto& file : files) {
      if (!run_file(file)) return 1;
      ++inputs;
    }
  }
  std::printf("%zu inputs ran\n", inputs);
  return inputs > 0 ? 0 : 1;
}

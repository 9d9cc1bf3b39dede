// Checks the documentation against the library, through the public C API only.
//
//   addbo_docs_examples examples FILE KIND...   every ```json block of FILE (see below); each
//                                               KIND listed must occur at least once
//   addbo_docs_examples api HEADER FILE         every function and status of HEADER is named in
//                                               FILE
//   addbo_docs_examples links ROOT FILE...      every relative link of each FILE names an
//                                               existing file inside ROOT
//   addbo_docs_examples load FILE...            every FILE is a state saved by an earlier
//                                               release: addbo_load accepts it and the restored
//                                               optimizer asks (docs/saved-state.md, Versions)
//
// Blocks are recognised by their opening fence at the start of a line; its info string says
// what the block is:
//   ```json                 a configuration: addbo_create must accept it         (KIND config)
//   ```json error POINTER   addbo_create must fail with ADDBO_ERR_CONFIG, the message naming
//                           POINTER ("/" for the whole document)                 (KIND error)
//   ```json canonical       exactly the "config" that addbo_save echoes for the previous
//                           configuration block; every key in it must also be named in FILE
//                           as `a.b` (`variables[].name` for the keys of the variables)
//                                                                                (KIND canonical)
//   ```json state           a saved state: addbo_load must accept it, and saving the restored
//                           optimizer must give the same document back            (KIND state)
//   ```json fragment        a piece of a document, not checked
// Any other word after "json" is an error, so that a typo cannot hide a block from the test.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "addbo/addbo.h"

namespace {

using json = nlohmann::json;

struct Block {
  int line = 0;                    // of the opening fence
  std::vector<std::string> words;  // the info string after "json"
  std::string text;
};

int failures = 0;

void failure(const std::string& file, int line, const std::string& message) {
  std::fprintf(stderr, "%s:%d: %s\n", file.c_str(), line, message.c_str());
  ++failures;
}

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  out = text.str();
  return true;
}

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// The ```json blocks of a Markdown file (other fenced blocks are skipped whole).
std::vector<Block> json_blocks(const std::string& file, const std::string& text) {
  std::vector<Block> blocks;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  bool inside = false, wanted = false;
  Block block;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind("```", 0) != 0) {
      if (inside && wanted) block.text += line + "\n";
      continue;
    }
    if (inside) {  // a closing fence
      if (wanted) blocks.push_back(block);
      inside = false;
      continue;
    }
    inside = true;
    std::vector<std::string> words = split_words(line.substr(3));
    wanted = !words.empty() && words[0] == "json";
    if (wanted) {
      block = Block{number, std::vector<std::string>(words.begin() + 1, words.end()), ""};
    }
  }
  if (inside) failure(file, number, "a fenced block is not closed");
  return blocks;
}

std::string last_error() { return addbo_last_error(); }

// Key paths of a configuration document: "goal", "structure.mode", "variables[].name".
void key_paths(const json& value, const std::string& prefix, std::set<std::string>& out) {
  if (value.is_object()) {
    for (const auto& item : value.items()) {
      const std::string path = prefix.empty() ? item.key() : prefix + "." + item.key();
      out.insert(path);
      key_paths(item.value(), path, out);
    }
  } else if (value.is_array()) {
    for (const json& element : value) key_paths(element, prefix + "[]", out);
  }
}

// Returns the saved state's "config" of a configuration the library accepts, or null.
json check_config(const std::string& file, const Block& block) {
  addbo_optimizer* opt = nullptr;
  const int status = addbo_create(&opt, block.text.c_str());
  if (status != ADDBO_OK) {
    failure(file, block.line,
            std::string("addbo_create rejected the example: ") + addbo_status_name(status) + ": " +
                last_error());
    return nullptr;
  }
  char* saved = nullptr;
  json config = nullptr;
  if (addbo_save(opt, &saved) == ADDBO_OK) {
    config = json::parse(saved)["config"];
    addbo_free_string(saved);
  } else {
    failure(file, block.line, "addbo_save failed: " + last_error());
  }
  addbo_destroy(opt);
  return config;
}

void check_error(const std::string& file, const Block& block) {
  if (block.words.size() != 2) {
    failure(file, block.line, "write an error example as ```json error <JSON pointer>");
    return;
  }
  addbo_optimizer* opt = nullptr;
  const int status = addbo_create(&opt, block.text.c_str());
  if (status == ADDBO_OK) {
    failure(file, block.line, "addbo_create accepted an example marked as an error");
    addbo_destroy(opt);
    return;
  }
  const std::string expected = "addbo_create: " + block.words[1] + ": ";
  if (status != ADDBO_ERR_CONFIG || last_error().rfind(expected, 0) != 0) {
    failure(file, block.line,
            "expected ADDBO_ERR_CONFIG with a message starting \"" + expected + "\", got " +
                addbo_status_name(status) + ": " + last_error());
  }
}

void check_canonical(const std::string& file, const std::string& text, const Block& block,
                     const json& previous) {
  if (previous.is_null()) {
    failure(file, block.line, "a canonical block must follow an accepted configuration block");
    return;
  }
  json documented;
  try {
    documented = json::parse(block.text);
  } catch (const json::exception& error) {
    failure(file, block.line, std::string("not JSON: ") + error.what());
    return;
  }
  if (documented != previous) {
    failure(
        file, block.line,
        "differs from the configuration addbo_save echoes; the library's is:\n" + previous.dump(2));
  }
  std::set<std::string> paths;
  key_paths(previous, "", paths);
  for (const std::string& path : paths) {
    if (text.find("`" + path + "`") == std::string::npos) {
      failure(file, block.line, "the key `" + path + "` is not documented in this file");
    }
  }
}

void check_state(const std::string& file, const Block& block) {
  addbo_optimizer* opt = nullptr;
  const int status = addbo_load(&opt, block.text.c_str());
  if (status != ADDBO_OK) {
    failure(file, block.line,
            std::string("addbo_load rejected the state: ") + addbo_status_name(status) + ": " +
                last_error());
    return;
  }
  char* saved = nullptr;
  if (addbo_save(opt, &saved) == ADDBO_OK) {
    if (json::parse(saved) != json::parse(block.text)) {
      failure(file, block.line,
              "saving the restored optimizer gives a different document:\n" +
                  json::parse(saved).dump(2));
    }
    addbo_free_string(saved);
  } else {
    failure(file, block.line, "addbo_save failed: " + last_error());
  }
  addbo_destroy(opt);
}

int examples(const std::string& file, const std::vector<std::string>& required) {
  std::string text;
  if (!read_file(file, text)) {
    failure(file, 0, "cannot read the file");
    return 1;
  }
  std::map<std::string, int> counts;
  json previous = nullptr;  // the echoed config of the last configuration block
  for (const Block& block : json_blocks(file, text)) {
    const std::string kind = block.words.empty() ? "config" : block.words[0];
    if (kind == "config" && !block.words.empty()) {
      failure(file, block.line, "unknown block kind \"config\"");
      continue;
    }
    ++counts[kind];
    if (kind == "config") {
      previous = check_config(file, block);
    } else if (kind == "error") {
      check_error(file, block);
    } else if (kind == "canonical") {
      check_canonical(file, text, block, previous);
    } else if (kind == "state") {
      check_state(file, block);
    } else if (kind != "fragment") {
      failure(file, block.line,
              "unknown block kind \"" + kind +
                  "\" (use ```json, ```json error <pointer>, ```json canonical, ```json state "
                  "or ```json fragment)");
    }
  }
  for (const std::string& kind : required) {
    if (counts[kind] == 0) failure(file, 0, "no example of kind \"" + kind + "\"");
  }
  std::printf("%s:", file.c_str());
  for (const auto& count : counts) std::printf(" %d %s", count.second, count.first.c_str());
  std::printf("\n");
  return failures == 0 ? 0 : 1;
}

// Every "ADDBO_API ... addbo_name(" and every ADDBO_OK / ADDBO_ERR_* of the header must appear
// in the documentation as `addbo_name` / `ADDBO_...`.
int api(const std::string& header, const std::string& file) {
  std::string declarations, text;
  if (!read_file(header, declarations) || !read_file(file, text)) {
    failure(file, 0, "cannot read " + header + " or " + file);
    return 1;
  }
  std::set<std::string> names;
  const std::regex function(R"(ADDBO_API[^;(]*\b(addbo_[a-z_]+)\s*\()");
  const std::regex status(R"(\b(ADDBO_(OK|ERR_[A-Z_]+))\s*=)");
  for (const std::regex& pattern : {function, status}) {
    for (std::sregex_iterator it(declarations.begin(), declarations.end(), pattern), end; it != end;
         ++it) {
      names.insert((*it)[1]);
    }
  }
  if (names.size() < 10) failure(header, 0, "found too few declarations to check");
  for (const std::string& name : names) {
    if (text.find("`" + name) == std::string::npos) {
      failure(file, 0, name + " (declared in " + header + ") is not documented");
    }
  }
  std::printf("%s: %zu names of %s documented\n", file.c_str(), names.size(), header.c_str());
  return failures == 0 ? 0 : 1;
}

// Relative Markdown links ](path) and ](path#anchor) must name existing files; nothing may
// point outside the repository (ROOT).
int links(const std::string& root, const std::vector<std::string>& files) {
  const std::regex link(R"(\]\(([^)\s]+)\))");
  std::size_t checked = 0;
  for (const std::string& file : files) {
    std::string text;
    if (!read_file(file, text)) {
      failure(file, 0, "cannot read the file");
      continue;
    }
    const std::string directory = file.substr(0, file.find_last_of('/') + 1);
    for (std::sregex_iterator it(text.begin(), text.end(), link), end; it != end; ++it) {
      std::string target = (*it)[1];
      if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
      target = target.substr(0, target.find('#'));
      if (target.empty()) continue;
      ++checked;
      char resolved[4096];
      if (realpath((directory + target).c_str(), resolved) == nullptr) {
        failure(file, 0, "broken link: " + target);
      } else if (std::string(resolved).rfind(root + "/", 0) != 0) {
        failure(file, 0, "link outside the repository: " + target);
      }
    }
  }
  std::printf("%zu relative links checked\n", checked);
  return failures == 0 ? 0 : 1;
}

// States saved by earlier releases must keep loading, and the optimizer must keep working.
int load(const std::vector<std::string>& files) {
  for (const std::string& file : files) {
    std::string text;
    if (!read_file(file, text)) {
      failure(file, 0, "cannot read the file");
      continue;
    }
    addbo_optimizer* opt = nullptr;
    int status = addbo_load(&opt, text.c_str());
    if (status != ADDBO_OK) {
      failure(file, 0,
              std::string("addbo_load rejected it: ") + addbo_status_name(status) + ": " +
                  last_error());
      continue;
    }
    std::size_t dim = 0;
    status = addbo_dimension(opt, &dim);
    std::vector<double> x(dim);
    if (status == ADDBO_OK) status = addbo_ask(opt, x.data(), dim);
    if (status != ADDBO_OK) {
      failure(file, 0,
              std::string("the restored optimizer cannot ask: ") + addbo_status_name(status) +
                  ": " + last_error());
    }
    addbo_destroy(opt);
  }
  std::printf("%zu saved states loaded\n", files.size());
  return failures == 0 && !files.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() >= 2 && args[0] == "examples") {
    return examples(args[1], std::vector<std::string>(args.begin() + 2, args.end()));
  }
  if (args.size() == 3 && args[0] == "api") return api(args[1], args[2]);
  if (args.size() >= 3 && args[0] == "links") {
    char root[4096];
    if (realpath(args[1].c_str(), root) == nullptr) return 1;
    return links(root, std::vector<std::string>(args.begin() + 2, args.end()));
  }
  if (args.size() >= 2 && args[0] == "load") {
    return load(std::vector<std::string>(args.begin() + 1, args.end()));
  }
  std::fprintf(
      stderr,
      "usage: %s examples FILE KIND... | api HEADER FILE | links ROOT FILE... | load FILE...\n",
      argv[0]);
  return 2;
}

#include "source_scan.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

namespace runner {

namespace {

enum class Kind { identifier, number, string, punct };

struct Token {
  Kind kind;
  std::string text;  // a string literal's contents, without quotes or prefix
  int line;
  bool directive;    // part of a preprocessor line (#define ...)
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::vector<Token> tokenize(const std::string& s) {
  std::vector<Token> out;
  int line = 1;
  bool directive = false, line_start = true;
  std::size_t i = 0;
  const std::size_t n = s.size();
  auto push = [&](Kind kind, std::string text, int at) { out.push_back({kind, std::move(text), at, directive}); };
  while (i < n) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
      directive = false;
      line_start = true;
      continue;
    }
    if (c == '\\' && i + 1 < n && s[i + 1] == '\n') {  // a continued line (macros)
      ++line;
      i += 2;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') ++line, ++i;
        ++i;
      }
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n') ++line;
        ++i;
      }
      i += 2;
      continue;
    }
    if (c == '#' && line_start) {
      directive = true;
      line_start = false;
      push(Kind::punct, "#", line);
      ++i;
      continue;
    }
    line_start = false;
    // String and character literals, with their prefixes (u8, L, u, U, R).
    std::size_t p = i;
    while (p < n && p - i < 3 && (s[p] == 'u' || s[p] == '8' || s[p] == 'L' || s[p] == 'U' || s[p] == 'R')) ++p;
    if (p < n && (s[p] == '"' || s[p] == '\'') && (p == i || !ident_char(s[i - (i > 0 ? 1 : 0)]) || i == 0)) {
      const bool raw = p > i && s[p - 1] == 'R' && s[p] == '"';
      const int at = line;
      if (raw) {
        const std::size_t open = s.find('(', p);
        const std::string delimiter = ")" + s.substr(p + 1, open == std::string::npos ? 0 : open - p - 1) + "\"";
        const std::size_t end = open == std::string::npos ? std::string::npos : s.find(delimiter, open);
        const std::string text = end == std::string::npos ? s.substr(p) : s.substr(open + 1, end - open - 1);
        line += static_cast<int>(std::count(text.begin(), text.end(), '\n'));
        push(Kind::string, text, at);
        i = end == std::string::npos ? n : end + delimiter.size();
        continue;
      }
      const char quote = s[p];
      std::string text;
      std::size_t q = p + 1;
      while (q < n && s[q] != quote && s[q] != '\n') {
        if (s[q] == '\\' && q + 1 < n) {
          text += s[q + 1];
          q += 2;
          continue;
        }
        text += s[q++];
      }
      push(quote == '"' ? Kind::string : Kind::number, text, at);
      i = q + 1;
      continue;
    }
    if (ident_start(c)) {
      std::size_t e = i;
      while (e < n && ident_char(s[e])) ++e;
      push(Kind::identifier, s.substr(i, e - i), line);
      i = e;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      std::size_t e = i;
      while (e < n && (ident_char(s[e]) || s[e] == '.' || s[e] == '\'' ||
                       ((s[e] == '+' || s[e] == '-') && (s[e - 1] == 'e' || s[e - 1] == 'E' || s[e - 1] == 'p' || s[e - 1] == 'P'))))
        ++e;
      push(Kind::number, s.substr(i, e - i), line);
      i = e;
      continue;
    }
    static const char* const two[] = {"::", "->", "##", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=",
                                      "&=", "|=", "^=", "&&", "||", "++", "--", "<<", ">>"};
    std::string punct(1, c);
    for (const char* op : two)
      if (s.compare(i, 2, op) == 0) punct = op;
    // "<<=" and ">>=" are one operator, not a shift and an assignment.
    if ((punct == "<<" || punct == ">>") && i + 2 < n && s[i + 2] == '=') punct += "=";
    push(Kind::punct, punct, line);
    i += punct.size();
  }
  return out;
}

bool is(const Token& t, const char* text) { return t.text == text && t.kind != Kind::string; }

const std::set<std::string>& builtin_types() {
  static const std::set<std::string> names{"void", "int", "float", "double", "char", "bool", "short", "long", "unsigned",
                                           "signed", "auto", "size_t", "const", "volatile", "struct", "class",
                                           "typename", "enum", "wchar_t", "char16_t", "char32_t", "char8_t"};
  return names;
}

// Words that look like a call and are not one.
const std::set<std::string>& not_calls() {
  static const std::set<std::string> names{"sizeof", "alignof", "alignas", "decltype", "noexcept", "static_assert",
                                           "defined", "__launch_bounds__", "__align__", "__attribute__", "return",
                                           "if", "while", "for", "switch", "operator"};
  return names;
}

class Scanner {
 public:
  Scanner(std::vector<Token> tokens, std::string file) : t_(std::move(tokens)), file_(std::move(file)) {}

  std::vector<Finding> run() {
    calls_and_names();
    namespace_scope();
    std::sort(found_.begin(), found_.end(), [](const Finding& a, const Finding& b) {
      return a.line != b.line ? a.line < b.line : a.what < b.what;
    });
    found_.erase(std::unique(found_.begin(), found_.end(),
                             [](const Finding& a, const Finding& b) { return a.line == b.line && a.what == b.what; }),
                 found_.end());
    return found_;
  }

 private:
  std::vector<Token> t_;
  std::string file_;
  std::vector<Finding> found_;

  void flag(int line, const std::string& what) { found_.push_back({file_, line, what}); }

  bool followed_by_paren(std::size_t i) const { return i + 1 < t_.size() && is(t_[i + 1], "("); }
  bool member(std::size_t i) const { return i > 0 && (is(t_[i - 1], ".") || is(t_[i - 1], "->")); }
  bool qualified_by(std::size_t i, const std::set<std::string>& scopes) const {
    return i >= 2 && is(t_[i - 1], "::") && t_[i - 2].kind == Kind::identifier && scopes.count(t_[i - 2].text) > 0;
  }

  // The index of the bracket closing the one at `open` (or the end).
  std::size_t closing(std::size_t open) const {
    const std::string o = t_[open].text, c = o == "(" ? ")" : o == "{" ? "}" : o == "[" ? "]" : ">";
    int depth = 0;
    for (std::size_t i = open; i < t_.size(); ++i) {
      if (t_[i].kind == Kind::string) continue;
      if (t_[i].text == o) ++depth;
      else if (t_[i].text == c && --depth == 0) return i;
    }
    return t_.size();
  }

  // Arguments of the call whose '(' is at `open`, split at top-level commas.
  std::vector<std::vector<const Token*>> arguments(std::size_t open) const {
    std::vector<std::vector<const Token*>> args(1);
    const std::size_t end = closing(open);
    int depth = 0;
    for (std::size_t i = open + 1; i < end; ++i) {
      const Token& x = t_[i];
      if (x.kind != Kind::string && (x.text == "(" || x.text == "{" || x.text == "[")) ++depth;
      if (x.kind != Kind::string && (x.text == ")" || x.text == "}" || x.text == "]")) --depth;
      if (depth == 0 && is(x, ",")) {
        args.emplace_back();
        continue;
      }
      args.back().push_back(&x);
    }
    if (args.size() == 1 && args[0].empty()) args.clear();
    return args;
  }

  void calls_and_names() {
    static const std::set<std::string> environment{"getenv", "secure_getenv", "setenv", "putenv", "unsetenv",
                                                   "clearenv", "getauxval"};
    static const std::set<std::string> environ_names{"environ", "__environ", "_environ", "program_invocation_name",
                                                     "program_invocation_short_name"};
    static const std::set<std::string> ends{"exit", "_exit", "_Exit", "quick_exit", "abort", "terminate", "kill",
                                            "killpg", "raise", "pthread_kill", "tgkill", "atexit", "at_quick_exit"};
    static const std::set<std::string> programs{"system", "popen", "fork", "vfork", "execl", "execle", "execlp",
                                                "execv", "execve", "execvp", "execvpe", "fexecve", "posix_spawn",
                                                "posix_spawnp", "syscall", "ptrace"};
    static const std::set<std::string> libraries{"dlopen", "dlmopen", "dlsym", "dlvsym"};
    static const std::set<std::string> file_changes{"unlink", "unlinkat", "rmdir", "rename", "renameat", "renameat2",
                                                    "truncate", "ftruncate", "mkdir", "mkdirat", "symlink", "symlinkat",
                                                    "link", "linkat", "remove_all", "copy_file", "create_directory",
                                                    "create_directories", "create_symlink", "create_directory_symlink",
                                                    "create_hard_link", "resize_file", "permissions", "mkstemp",
                                                    "mkostemp", "tmpfile", "chmod", "fchmod", "chown", "creat", "mkfifo"};
    static const std::set<std::string> streams{"ofstream", "fstream", "wofstream", "wfstream", "basic_ofstream",
                                               "basic_fstream", "filebuf", "basic_filebuf"};
    static const std::set<std::string> filesystem_scopes{"filesystem", "fs"};
    for (std::size_t i = 0; i < t_.size(); ++i) {
      const Token& x = t_[i];
      if (x.kind == Kind::string) {
        if (x.text.find("/proc") != std::string::npos) flag(x.line, "reads /proc (\"" + x.text.substr(0, 40) + "\")");
        if (x.text.find("STEPWISE_") != std::string::npos || x.text.find("GTEST_") != std::string::npos)
          flag(x.line, "names the grader's environment (\"" + x.text.substr(0, 40) + "\")");
        if (x.text.find(".init_array") != std::string::npos || x.text.find(".ctors") != std::string::npos ||
            x.text.find(".preinit_array") != std::string::npos)
          flag(x.line, "runs before main (section \"" + x.text + "\")");
        continue;
      }
      if (x.directive && is(x, "##")) flag(x.line, "pastes tokens in a macro (##: a name this scan cannot read)");
      if (x.kind != Kind::identifier) continue;
      const std::string& w = x.text;
      const bool call = followed_by_paren(i) && !member(i);
      if (w == "asm" || w == "__asm__" || w == "__asm") flag(x.line, "inline assembly (" + w + ")");
      else if (environ_names.count(w)) flag(x.line, "reads the grader's environment (" + w + ")");
      else if (environment.count(w) && call) flag(x.line, "reads or changes the grader's environment (" + w + ")");
      else if (ends.count(w) && call) flag(x.line, "ends the process (" + w + ")");
      else if (programs.count(w) && call) flag(x.line, "starts a program (" + w + ")");
      else if (libraries.count(w) && call) flag(x.line, "loads a library (" + w + ")");
      else if (streams.count(w)) flag(x.line, "writes a file (" + w + ")");
      else if (file_changes.count(w) && call) flag(x.line, "writes or removes files (" + w + ")");
      else if ((w == "remove" || w == "rename" || w == "copy") && followed_by_paren(i) && qualified_by(i, filesystem_scopes))
        flag(x.line, "writes or removes files (filesystem::" + w + ")");
      else if (w == "remove" && call && arguments(i + 1).size() == 1) flag(x.line, "removes a file (remove)");
      else if ((w == "fopen" || w == "fopen64" || w == "freopen" || w == "fdopen") && call) {
        const auto args = arguments(i + 1);
        const Token* mode = nullptr;
        if (args.size() >= 2)
          for (const Token* a : args[1])
            if (a->kind == Kind::string) mode = a;
        if (mode == nullptr) flag(x.line, "opens a file with a mode this scan cannot read (" + w + ")");
        else if (mode->text.find_first_of("wa+") != std::string::npos) flag(x.line, "writes a file (" + w + " \"" + mode->text + "\")");
      } else if ((w == "open" || w == "open64" || w == "openat") && call) {
        for (const auto& arg : arguments(i + 1))
          for (const Token* a : arg)
            if (a->text == "O_WRONLY" || a->text == "O_RDWR" || a->text == "O_CREAT" || a->text == "O_TRUNC" ||
                a->text == "O_APPEND")
              flag(x.line, "writes a file (" + w + " " + a->text + ")");
      } else if (w == "__attribute__" || w == "__attribute") {
        if (i + 1 < t_.size() && is(t_[i + 1], "(")) attribute(i + 1, closing(i + 1));
      } else if (w == "constructor" || w == "__constructor__" || w == "destructor" || w == "__destructor__") {
        if (i >= 2 && is(t_[i - 1], "::") && t_[i - 2].text == "gnu") flag(x.line, "runs before or after main (gnu::" + w + ")");
      }
    }
  }

  void attribute(std::size_t open, std::size_t end) {
    for (std::size_t k = open; k < end; ++k) {
      const std::string& a = t_[k].text;
      if (t_[k].kind == Kind::identifier &&
          (a == "constructor" || a == "__constructor__" || a == "destructor" || a == "__destructor__" || a == "init_priority"))
        flag(t_[k].line, "runs before or after main (__attribute__((" + a + ")))");
    }
  }

  // Declarations at namespace scope: what they run before main.
  void namespace_scope() {
    std::vector<std::size_t> statement;  // token indices since the last ';' or '}' at namespace scope
    for (std::size_t i = 0; i < t_.size(); ++i) {
      const Token& x = t_[i];
      if (x.directive) continue;
      if (is(x, "}")) {  // a namespace closes
        statement.clear();
        continue;
      }
      if (is(x, ";")) {
        declaration(statement);
        statement.clear();
        continue;
      }
      if (is(x, "{")) {
        const std::string shape = brace_kind(statement);
        if (shape == "namespace") {
          statement.clear();
          continue;
        }
        const std::size_t end = closing(i);
        if (shape == "initialiser") {
          for (std::size_t k = i; k <= end && k < t_.size(); ++k) statement.push_back(k);
        } else {
          statement.clear();
          if (shape == "class") {  // `struct S {...} s;`: the statement goes on after the body
            statement.push_back(i);
            statement.push_back(end < t_.size() ? end : t_.size() - 1);
          }
        }
        i = end;
        continue;
      }
      statement.push_back(i);
    }
  }

  // What the '{' after `statement` opens: namespace, class, function or initialiser.
  std::string brace_kind(const std::vector<std::size_t>& statement) const {
    if (statement.empty()) return "function";
    const Token& first = t_[statement.front()];
    if (is(first, "namespace") || (statement.size() >= 2 && is(t_[statement[1]], "namespace"))) return "namespace";
    if (is(first, "extern") && statement.size() == 2 && t_[statement[1]].kind == Kind::string) return "namespace";
    int depth = 0;
    bool paren = false;
    for (std::size_t k : statement) {
      const Token& x = t_[k];
      if (is(x, "(") || is(x, "<")) ++depth;
      if (is(x, ")") || is(x, ">")) --depth;
      if (is(x, ")")) paren = true;
      if (depth == 0 && is(x, "=") && !(k > 0 && is(t_[k - 1], "operator"))) return "initialiser";
      if (depth == 0 && (is(x, "struct") || is(x, "class") || is(x, "union") || is(x, "enum"))) return "class";
    }
    if (paren || is(t_[statement.back()], "const") || is(t_[statement.back()], "noexcept") ||
        is(t_[statement.back()], "override"))
      return "function";
    return "initialiser";  // Type name{...}
  }

  void declaration(std::vector<std::size_t> statement) {
    if (statement.empty()) return;
    // template <...> declarations: the parameters are not a statement's tokens.
    if (is(t_[statement.front()], "template") && statement.size() > 1 && is(t_[statement[1]], "<")) {
      int depth = 0;
      std::size_t k = 1;
      for (; k < statement.size(); ++k) {
        if (is(t_[statement[k]], "<")) ++depth;
        if (is(t_[statement[k]], ">") && --depth == 0) break;
      }
      statement.erase(statement.begin(), statement.begin() + static_cast<std::ptrdiff_t>(std::min(k + 1, statement.size())));
      if (statement.empty()) return;
    }
    static const std::set<std::string> skipped{"using", "typedef", "static_assert", "friend", "constexpr", "consteval",
                                               "constinit", "operator", "extern", "__global__"};
    for (std::size_t k : statement)
      if (t_[k].kind == Kind::identifier && skipped.count(t_[k].text)) return;
    const int line = t_[statement.front()].line;
    // name = initialiser: a call in it runs before main.
    int depth = 0;
    for (std::size_t s = 0; s < statement.size(); ++s) {
      const Token& x = t_[statement[s]];
      if (is(x, "(") || is(x, "[")) ++depth;
      if (is(x, ")") || is(x, "]")) --depth;
      if (depth == 0 && is(x, "=")) {
        initialiser(statement, s + 1);
        return;
      }
    }
    // Type name(args): an object constructed (a function's declaration has parameters, not values).
    for (std::size_t s = 2; s < statement.size(); ++s) {
      if (!is(t_[statement[s]], "(") || t_[statement[s - 1]].kind != Kind::identifier) continue;
      const std::size_t open = statement[s];
      const auto args = arguments(open);
      if (args.empty()) return;  // f(): a declaration
      for (const auto& arg : args) {
        if (arg.empty()) return;
        for (std::size_t a = 0; a < arg.size(); ++a) {
          const Token& y = *arg[a];
          if (y.kind == Kind::identifier && builtin_types().count(y.text)) return;
          if (is(y, "*") || is(y, "&") || is(y, "&&") || is(y, "...") || is(y, "::")) return;
          if (a > 0 && y.kind == Kind::identifier && arg[a - 1]->kind == Kind::identifier) return;  // Type name
        }
      }
      flag(line, "runs before main (the global object '" + t_[statement[s - 1]].text + "' is constructed)");
      return;
    }
    // Type name; / Type name{...}: a class-type object (std::..., a template) is constructed.
    bool class_type = false, pointer = false;
    for (std::size_t k : statement) {
      if (is(t_[k], "::") || is(t_[k], "<")) class_type = true;
      if (is(t_[k], "*") || is(t_[k], "&") || is(t_[k], "(")) pointer = true;
    }
    bool braces = false;
    for (std::size_t s = 1; s < statement.size(); ++s)
      if (is(t_[statement[s]], "{") && !is(t_[statement[s] + 1], "}")) braces = true;
    if ((class_type || braces) && !pointer && statement.size() >= 2) {
      std::string name;
      for (std::size_t k : statement)
        if (t_[k].kind == Kind::identifier && !is(t_[k], "static") && !is(t_[k], "inline")) name = t_[k].text;
      if (braces) {
        for (std::size_t s = 0; s + 1 < statement.size(); ++s)
          if (is(t_[statement[s + 1]], "{")) name = t_[statement[s]].text;
      }
      flag(line, "runs before main (the global object '" + name + "' is constructed)");
    }
  }

  void initialiser(const std::vector<std::size_t>& statement, std::size_t from) {
    for (std::size_t s = from; s < statement.size(); ++s) {
      const std::size_t k = statement[s];
      const Token& x = t_[k];
      // A lambda's body runs when it is called, not here; a lambda called at once does.
      if (is(x, "{") && s > from && (is(t_[k - 1], ")") || is(t_[k - 1], "]") || is(t_[k - 1], "mutable"))) {
        const std::size_t end = closing(k);
        while (s < statement.size() && statement[s] < end) ++s;
        if (end + 1 < t_.size() && is(t_[end + 1], "(")) flag(x.line, "runs before main (a lambda called in a global's initialiser)");
        continue;
      }
      if (x.kind != Kind::identifier || !followed_by_paren(k) || not_calls().count(x.text) ||
          builtin_types().count(x.text))
        continue;
      flag(x.line, "runs before main (a global's initialiser calls " + x.text + "())");
    }
  }
};

}  // namespace

std::vector<Finding> scan_source(const std::string& text, const std::string& file) {
  return Scanner(tokenize(text), file).run();
}

std::vector<Finding> scan_file(const std::filesystem::path& path, const std::string& name) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return scan_source(text.str(), name);
}

}  // namespace runner

// run_process: a child in its own process group still dies with the process that started it.
#include "exec/subprocess.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

namespace ucutlass {
namespace {
namespace fs = std::filesystem;

bool alive(pid_t pid) {
  if (kill(pid, 0) != 0) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const size_t paren = line.rfind(')');
  return paren == std::string::npos || line.substr(paren + 2, 1) != "Z";  // a zombie has exited
}

TEST(Subprocess, ChildDiesWithTheProcessThatStartedIt) {
  const fs::path pid_file = fs::temp_directory_path() / ("ucutlass_pdeath_" + std::to_string(getpid()));
  fs::remove(pid_file);
  const pid_t starter = fork();
  ASSERT_GE(starter, 0);
  if (starter == 0) {  // stands in for `ucutlass optimize`, blocked on its harness batch
    run_process({"sh", "-c", "echo $$ > " + pid_file.string() + "; exec sleep 60"});
    _exit(0);
  }
  pid_t child = 0;
  for (int i = 0; i < 200 && child == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    std::ifstream in(pid_file);
    in >> child;
  }
  ASSERT_GT(child, 0) << "the grandchild never started";
  EXPECT_TRUE(alive(child));
  kill(starter, SIGKILL);  // kill -9: no clean-up code of the starter runs
  waitpid(starter, nullptr, 0);
  for (int i = 0; i < 200 && alive(child); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  EXPECT_FALSE(alive(child));
  if (alive(child)) kill(child, SIGKILL);
  fs::remove(pid_file);
}

}  // namespace
}  // namespace ucutlass

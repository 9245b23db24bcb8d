#include "exec/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace ucutlass {

std::string ProcessResult::describe() const {
  if (spawn_failed) return "could not start: " + err;
  if (timed_out) return "timed out";
  if (exited) return "exit code " + std::to_string(exit_code);
  const char* name = strsignal(signal);
  return "killed by signal " + std::to_string(signal) + (name ? std::string(" (") + name + ")" : "");
}

namespace {

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  ProcessResult result;
  auto start = std::chrono::steady_clock::now();
  if (argv.empty()) {
    result.spawn_failed = true;
    result.err = "empty command";
    return result;
  }
  int in_pipe[2] = {-1, -1}, out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1}, exec_pipe[2] = {-1, -1};
  if (pipe2(in_pipe, O_CLOEXEC) || pipe2(out_pipe, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC) ||
      pipe2(exec_pipe, O_CLOEXEC)) {
    result.spawn_failed = true;
    result.err = std::string("pipe: ") + std::strerror(errno);
    for (int* p : {in_pipe, out_pipe, err_pipe, exec_pipe}) { close_fd(p[0]); close_fd(p[1]); }
    return result;
  }

  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) env_strings.emplace_back(*e);
  for (const std::string& kv : options.extra_env) env_strings.push_back(kv);
  std::vector<char*> envp, args;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (std::string& s : argv_copy) args.push_back(s.data());
  args.push_back(nullptr);

  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    result.spawn_failed = true;
    result.err = std::string("fork: ") + std::strerror(errno);
    for (int* p : {in_pipe, out_pipe, err_pipe, exec_pipe}) { close_fd(p[0]); close_fd(p[1]); }
    return result;
  }
  if (pid == 0) {
    setpgid(0, 0);
    // Its own process group keeps a kill of ours from reaching it, so it dies with us instead: a
    // killed `ucutlass optimize` must not leave a harness batch timing kernels beside its resumed run
    // (the first GPU campaign's kill test found exactly that). Checked after, in case we died first.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    if (!options.working_dir.empty() && chdir(options.working_dir.c_str()) != 0) {
      int e = errno;
      (void)!write(exec_pipe[1], &e, sizeof e);
      _exit(127);
    }
    environ = envp.data();
    execvp(args[0], args.data());
    int e = errno;
    (void)!write(exec_pipe[1], &e, sizeof e);
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent, so a kill before the child runs still reaches it
  close_fd(in_pipe[0]);
  close_fd(out_pipe[1]);
  close_fd(err_pipe[1]);
  close_fd(exec_pipe[1]);

  int exec_errno = 0;
  if (read(exec_pipe[0], &exec_errno, sizeof exec_errno) == static_cast<ssize_t>(sizeof exec_errno)) {
    close_fd(exec_pipe[0]);
    close_fd(in_pipe[1]);
    close_fd(out_pipe[0]);
    close_fd(err_pipe[0]);
    waitpid(pid, nullptr, 0);
    result.spawn_failed = true;
    result.err = argv[0] + ": " + std::strerror(exec_errno);
    return result;
  }
  close_fd(exec_pipe[0]);

  std::string input = options.stdin_text.value_or("");
  size_t in_off = 0;
  if (input.empty()) close_fd(in_pipe[1]);
  else fcntl(in_pipe[1], F_SETFL, O_NONBLOCK);

  auto deadline = start + std::chrono::duration<double>(options.timeout_s);
  char buf[65536];
  while (out_pipe[0] >= 0 || err_pipe[0] >= 0) {
    pollfd fds[3];
    int n = 0;
    int out_i = -1, err_i = -1, in_i = -1;
    if (out_pipe[0] >= 0) { out_i = n; fds[n++] = {out_pipe[0], POLLIN, 0}; }
    if (err_pipe[0] >= 0) { err_i = n; fds[n++] = {err_pipe[0], POLLIN, 0}; }
    if (in_pipe[1] >= 0) { in_i = n; fds[n++] = {in_pipe[1], POLLOUT, 0}; }
    int wait_ms = 200;
    if (options.timeout_s > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) {
        result.timed_out = true;
        kill(-pid, SIGKILL);
        break;
      }
      wait_ms = static_cast<int>(std::min<long long>(left, 200));
    }
    int r = poll(fds, n, wait_ms);
    if (r < 0 && errno != EINTR) break;
    if (r <= 0) continue;
    auto drain = [&](int idx, int& fd, std::string& sink) {
      if (idx < 0 || !(fds[idx].revents & (POLLIN | POLLHUP | POLLERR))) return;
      ssize_t got = read(fd, buf, sizeof buf);
      if (got <= 0) { close_fd(fd); return; }
      if (sink.size() < options.max_output_bytes)
        sink.append(buf, std::min<size_t>(static_cast<size_t>(got), options.max_output_bytes - sink.size()));
    };
    drain(out_i, out_pipe[0], result.out);
    drain(err_i, err_pipe[0], result.err);
    if (in_i >= 0 && (fds[in_i].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t w = write(in_pipe[1], input.data() + in_off, input.size() - in_off);
      if (w > 0) in_off += static_cast<size_t>(w);
      if (w < 0 && errno != EAGAIN) close_fd(in_pipe[1]);
      if (in_off >= input.size()) close_fd(in_pipe[1]);
    }
  }
  close_fd(in_pipe[1]);
  close_fd(out_pipe[0]);
  close_fd(err_pipe[0]);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  // Grandchildren that outlived the child would keep holding resources.
  kill(-pid, SIGKILL);
  if (!result.timed_out) {
    if (WIFEXITED(status)) {
      result.exited = true;
      result.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      result.signal = WTERMSIG(status);
    }
  }
  result.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace ucutlass

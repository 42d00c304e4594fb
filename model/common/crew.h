// A crew of helper threads that run one job at a time alongside the calling thread (plain C++, used
// outside SystemC, e.g. by the parallel fast-forward). With no helpers it costs nothing.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace ssdtlm {

// A helper thread of a Crew could not start: "cannot start helper thread k of n: <the system's reason>".
struct CrewStartError : std::system_error {
  using std::system_error::system_error;
};

class Crew {
 public:
  // Starts a helper thread running its argument (tests inject a failure); empty = std::thread.
  using Spawn = std::function<std::thread(std::function<void()>)>;

  // A helper that cannot start (std::system_error: no memory for its stack under ulimit -v, too many
  // threads) stops and joins those started, then throws CrewStartError.
  explicit Crew(unsigned helpers, const Spawn& spawn = nullptr) {
    threads_.reserve(helpers);
    try {
      for (unsigned i = 0; i < helpers; ++i) {
        std::function<void()> body = [this] { loop(); };
        threads_.push_back(spawn ? spawn(std::move(body)) : std::thread(std::move(body)));
      }
    } catch (const std::system_error& e) {
      const size_t started = threads_.size();
      halt();  // else the helpers would wait on condition variables being destroyed
      throw CrewStartError(e.code(), "cannot start helper thread " + std::to_string(started + 1) + " of " +
                                            std::to_string(helpers));
    } catch (...) {
      halt();
      throw;
    }
  }
  ~Crew() { halt(); }
  // Runs job on every helper and on the caller, which runs `first` (if any) before it; returns when all
  // are done, rethrowing the first exception (the caller's first).
  void run(const std::function<void()>& job, const std::function<void()>& first = nullptr) {
    start(job);
    std::exception_ptr error;
    try {
      if (first) first();
      job();
    } catch (...) {
      error = std::current_exception();
    }
    wait();  // the helpers may still use what the job refers to
    if (error) std::rethrow_exception(error);
  }

 private:
  // Hands the job to every helper.
  void start(const std::function<void()>& job) {
    {
      std::lock_guard<std::mutex> l(m_);
      job_ = &job;
      busy_ = threads_.size();
      ++round_;
    }
    go_.notify_all();
  }
  // Returns when every helper has finished the job; rethrows the first exception a helper raised.
  void wait() {
    std::unique_lock<std::mutex> l(m_);
    done_.wait(l, [&] { return busy_ == 0; });
    if (error_) std::rethrow_exception(error_);
  }
  // Stops the helpers and joins them.
  void halt() {
    {
      std::lock_guard<std::mutex> l(m_);
      stop_ = true;
    }
    go_.notify_all();
    for (auto& t : threads_) t.join();
    threads_.clear();
  }
  void loop() {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void()>* job;
      {
        std::unique_lock<std::mutex> l(m_);
        go_.wait(l, [&] { return stop_ || round_ != seen; });
        if (stop_) return;
        seen = round_;
        job = job_;
      }
      std::exception_ptr e;
      try {
        (*job)();
      } catch (...) {
        e = std::current_exception();
      }
      std::lock_guard<std::mutex> l(m_);
      if (e && !error_) error_ = e;
      if (--busy_ == 0) done_.notify_all();
    }
  }
  std::vector<std::thread> threads_;
  std::mutex m_;
  std::condition_variable go_, done_;
  const std::function<void()>* job_ = nullptr;
  std::exception_ptr error_;
  size_t busy_ = 0;
  uint64_t round_ = 0;
  bool stop_ = false;
};

}  // namespace ssdtlm

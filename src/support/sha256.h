#pragma once
// SHA-256 (FIPS 180-4), for content-addressed names: the header namespace of
// emitted code and the build cache key. Collisions must be out of the question
// there, which rules out a short non-cryptographic hash.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ucutlass {

class Sha256 {
 public:
  Sha256();
  void update(std::string_view data);
  std::array<uint8_t, 32> finish();

 private:
  void compress(const uint8_t* block);
  std::array<uint32_t, 8> h_;
  std::array<uint8_t, 64> buf_{};
  size_t buf_len_ = 0;
  uint64_t total_ = 0;
};

// Lower-case hex digest of `data`.
std::string sha256_hex(std::string_view data);

}  // namespace ucutlass

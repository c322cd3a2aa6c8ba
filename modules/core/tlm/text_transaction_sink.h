// The text back end of the transaction recorder: one line per TLM call, as it returned:
//   <time ps> <recorder> <fw|bw|b> <phase sent>-><ACCEPTED|UPDATED|COMPLETED>[:<phase back>]
//     <read|write|ignore> 0x<address> len <bytes> [id <n> sm <s> warp <w> <space> <kind> [<status> <cause>]]
// For reading by eye and for diffs between runs; the SQLite back end is for queries.
#pragma once

#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/tlm/transaction_recorder.h"

namespace gputlm {

class TextTransactionSink : public TransactionSink {
 public:
  explicit TextTransactionSink(std::ostream& out);  // not owned
  // Creates `path` (an error names it when it cannot be created).
  explicit TextTransactionSink(const std::string& path);

  uint32_t attach(const TransactionRecorder& r) override;
  void call(uint32_t socket, const TlmCall& c) override;

 private:
  std::unique_ptr<std::ofstream> file_;
  std::ostream* out_;
  std::vector<std::string> names_;  // by socket
};

}  // namespace gputlm

// Shared by the store's tests: temporary folders, whole-file reads and writes, opening and importing that
// throw on error (a test that cannot set itself up fails loudly), and the test logs.
#pragma once

#include "core/store/importer.h"
#include "core/store/store.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ts::store::test {

namespace fs = std::filesystem;

inline const fs::path kLogs = fs::path(TS_TEST_DATA_DIR) / "tvm-logs";
inline const std::vector<std::string> kLogFiles
    = { "matmul.json", "conv2d.json", "resnet-18-NHWC-B1.json", "resnet-18-NHWC-B1-cuda.json" };

class TempDir {
public:
    TempDir()
    {
        std::string pattern = (fs::temp_directory_path() / "ts_store_XXXXXX").string();
        m_path = mkdtemp(pattern.data());
    }
    ~TempDir() { fs::remove_all(m_path); }
    std::string file(const std::string& name) const { return (m_path / name).string(); }
    // Writes `text` to a new file in the folder and returns its path.
    std::string write(const std::string& name, const std::string& text) const
    {
        const std::string path = file(name);
        std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
        return path;
    }

private:
    fs::path m_path;
};

inline std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline void writeAll(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

inline Store openOrDie(const std::string& path, const OpenOptions& options = {})
{
    auto store = Store::open(path, options);
    if (!store)
        throw std::runtime_error(store.error().message);
    return std::move(store).value();
}

inline ImportReport importOrDie(Store& store, const std::string& path, const ImportOptions& options = {})
{
    auto report = importLog(store, path, options);
    if (!report)
        throw std::runtime_error(report.error().message);
    return std::move(report).value();
}

} // namespace ts::store::test

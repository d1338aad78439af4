// The dependencies later modules wrap (LLVM, XGBoost, SQLite, LibTorch's version) are found, link and
// answer on this machine. Each later module replaces a check here with real use; until then this keeps
// "found and wired" honest on every CI machine.
#include <gtest/gtest.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <sqlite3.h>
#include <torch/csrc/api/include/torch/version.h>
#include <xgboost/c_api.h>

#include <string>

TEST(Dependencies, LlvmKnowsTheHost)
{
    EXPECT_EQ(LLVM_VERSION_MAJOR, 15);
    EXPECT_FALSE(llvm::InitializeNativeTarget());
    // LLVM 15 answers "generic" for a CPU newer than itself (AMD Zen 5): the target then picks the closest
    // model it knows from the features (target/host_cpu.h, tested in target_test), so only the features must
    // be read here.
    const std::string cpu = llvm::sys::getHostCPUName().str();
    EXPECT_FALSE(cpu.empty());
    llvm::StringMap<bool> features;
    ASSERT_TRUE(llvm::sys::getHostCPUFeatures(features));
    EXPECT_TRUE(features.lookup("sse2"));
}

TEST(Dependencies, XgboostAndSqliteAnswer)
{
    int major = 0, minor = 0, patch = 0;
    XGBoostVersion(&major, &minor, &patch);
    EXPECT_EQ(major, 1);
    EXPECT_GE(minor, 7);
    EXPECT_GE(sqlite3_libversion_number(), 3040000);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, "PRAGMA journal_mode=WAL; CREATE TABLE t(x); INSERT INTO t VALUES (1);", nullptr,
                  nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(db);
}

TEST(Dependencies, LibTorchVersion) { EXPECT_EQ(std::string(TORCH_VERSION).rfind("1.13", 0), 0u); }

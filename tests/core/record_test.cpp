// The shared measurement vocabulary: TVM's error numbers and their one checked range, the failed cost,
// the mean-cost rule and timestamps.
#include "core/record/measure_result.h"
#include "core/record/measure_status.h"

#include <gtest/gtest.h>

#include <ctime>
#include <set>
#include <string>

using namespace ts;
using record::MeasureStatus;

TEST(MeasureStatus, NumbersAreTvmsMeasureErrorNo)
{
    EXPECT_EQ(record::toInt(MeasureStatus::Ok), 0);
    EXPECT_EQ(record::toInt(MeasureStatus::InstantiationError), 1);
    EXPECT_EQ(record::toInt(MeasureStatus::CompileHostError), 2);
    EXPECT_EQ(record::toInt(MeasureStatus::CompileDeviceError), 3);
    EXPECT_EQ(record::toInt(MeasureStatus::RuntimeDeviceError), 4);
    EXPECT_EQ(record::toInt(MeasureStatus::WrongAnswer), 5);
    EXPECT_EQ(record::toInt(MeasureStatus::BuildTimeout), 6);
    EXPECT_EQ(record::toInt(MeasureStatus::RunTimeout), 7);
    EXPECT_EQ(record::toInt(MeasureStatus::UnknownError), 8);
    std::set<std::string> names;
    for (int i = record::kMinMeasureStatus; i <= record::kMaxMeasureStatus; ++i) {
        auto status = record::measureStatusFromInt(i);
        ASSERT_TRUE(status) << i;
        EXPECT_EQ(record::toInt(*status), i);
        names.insert(record::toString(*status));
    }
    EXPECT_EQ(names.size(), 9u);
    EXPECT_STREQ(record::toString(MeasureStatus::RunTimeout), "run timeout");
}

TEST(MeasureStatus, OutOfRangeNamesTheFieldAndTheRange)
{
    for (int64_t bad : { int64_t(-1), int64_t(9), INT64_MAX }) {
        auto status = record::measureStatusFromInt(bad);
        ASSERT_FALSE(status) << bad;
        EXPECT_EQ(status.error().kind, ErrorKind::Parse);
        EXPECT_EQ(status.error().message, "error number is " + std::to_string(bad) + ", outside 0..8");
    }
    auto status = record::measureStatusFromInt(42, "r[1] (error_no)");
    ASSERT_FALSE(status);
    EXPECT_EQ(status.error().message, "r[1] (error_no) is 42, outside 0..8");
}

TEST(MeasureResult, MeanCostIsTvmsRule)
{
    record::MeasureResult ok;
    ok.status = MeasureStatus::Ok;
    ok.costs = { 1e-3, 2e-3, 3e-3 };
    EXPECT_TRUE(ok.ok());
    EXPECT_DOUBLE_EQ(ok.meanCost(), 2e-3);

    // A failure never ranks, whatever costs its log line carried.
    record::MeasureResult failed = ok;
    failed.status = MeasureStatus::WrongAnswer;
    EXPECT_FALSE(failed.ok());
    EXPECT_EQ(failed.meanCost(), record::kFailedCost);
    EXPECT_EQ(record::kFailedCost, 1e10);

    // Nor does a success with no costs.
    record::MeasureResult empty;
    empty.status = MeasureStatus::Ok;
    EXPECT_FALSE(empty.ok());
    EXPECT_EQ(empty.meanCost(), record::kFailedCost);

    // The default is a failure, not a success with no costs.
    EXPECT_EQ(record::MeasureResult {}.status, MeasureStatus::UnknownError);
}

TEST(MeasureResult, FailedResultIsStampedNowWithTheFailedCost)
{
    const double before = record::unixNow();
    const record::MeasureResult r = record::failedResult(MeasureStatus::RunTimeout, "no result within 10 ms", 0.25);
    const double after = record::unixNow();
    EXPECT_EQ(r.status, MeasureStatus::RunTimeout);
    EXPECT_EQ(r.costs, std::vector<double> { record::kFailedCost });
    EXPECT_EQ(r.message, "no result within 10 ms");
    EXPECT_EQ(r.allCost, 0.25);
    EXPECT_GE(r.timestamp, before);
    EXPECT_LE(r.timestamp, after);
    // Unix seconds, as the store and TVM's logs keep them.
    EXPECT_NEAR(r.timestamp, static_cast<double>(std::time(nullptr)), 2.0);
}

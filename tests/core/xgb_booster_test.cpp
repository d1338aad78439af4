// PackSumBooster (core/cost/xgb_booster.h): Ansor's pack-sum XGBoost learner on synthetic matrices whose
// labels are known sums over rows (pack_sum_fixtures.h).
#include "pack_sum_fixtures.h"

#include "core/cost/random_model.h"
#include "core/cost/xgb_booster.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <thread>

namespace ts::cost {
namespace {

    using testing::makeSyntheticPacks;
    using testing::pairwiseAccuracy;
    using testing::sliceProgramsOf;

    // Two kinds of rows: column 0 says which (0: worth 0.05, 1: worth 0.15), column 1 is noise. A program
    // of 1..6 rows is labelled with the sum of its rows' worth.
    testing::SyntheticPacks twoKindsOfRows(int programs, uint64_t seed)
    {
        Rng rng(seed);
        testing::SyntheticPacks out;
        out.matrix.columns = 2;
        for (int p = 0; p < programs; ++p) {
            const int rows = static_cast<int>(rng.uniformInt(1, 6));
            out.matrix.groupSizes.push_back(rows);
            double label = 0;
            for (int r = 0; r < rows; ++r) {
                const bool heavy = rng.bernoulli(0.5);
                out.matrix.values.push_back(heavy ? 1.0f : 0.0f);
                out.matrix.values.push_back(static_cast<float>(rng.uniform()));
                out.rowTruth.push_back(heavy ? 0.15f : 0.05f);
                label += out.rowTruth.back();
            }
            out.labels.push_back(static_cast<float>(label));
        }
        return out;
    }

    // Ansor's settings with one thread: tests run side by side, and an OpenMP team on a busy machine spins.
    PackSumSettings testSettings(int rounds = 10000)
    {
        PackSumSettings settings;
        settings.nthread = 1;
        settings.numBoostRound = rounds;
        return settings;
    }

    bool bitIdentical(const std::vector<float>& a, const std::vector<float>& b)
    {
        return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
    }

    PackSumBooster trainedOnTwoKinds(int programs = 300)
    {
        const auto data = twoKindsOfRows(programs, 7);
        PackSumBooster booster(testSettings());
        auto stats = booster.train(data.matrix, data.labels);
        EXPECT_TRUE(stats) << stats.error().toString();
        return booster;
    }

} // namespace

TEST(PackSumBooster, RanksHeldOutProgramsWellAboveChance)
{
    const auto all = makeSyntheticPacks(900, 32, 11);
    const auto train = sliceProgramsOf(all, 0, 600);
    const auto heldOut = sliceProgramsOf(all, 600, 900);
    PackSumBooster booster(testSettings(100));
    auto stats = booster.train(train.matrix, train.labels);
    ASSERT_TRUE(stats) << stats.error().toString();
    EXPECT_EQ(stats->rounds, booster.rounds());

    auto scores = booster.predict(heldOut.matrix);
    ASSERT_TRUE(scores) << scores.error().toString();
    ASSERT_EQ(scores->size(), heldOut.labels.size());
    EXPECT_GT(pairwiseAccuracy(*scores, heldOut.labels), 0.85);
}

// Each row is scored on its own and a program is the sum: the learnt row scores are the rows' worth.
// A plain per-row objective (every row regressed on its program's label) would give both kinds of row
// about the mean label, 0.35, and make program sums several times too large.
TEST(PackSumBooster, LearnsRowScoresThatSumToTheLabel)
{
    const auto data = twoKindsOfRows(400, 3);
    PackSumBooster booster(testSettings());
    ASSERT_TRUE(booster.train(data.matrix, data.labels));

    auto rows = booster.predictRows(data.matrix);
    ASSERT_TRUE(rows) << rows.error().toString();
    ASSERT_EQ(rows->size(), data.rowTruth.size());
    double light = 0, heavy = 0, lightRows = 0, heavyRows = 0;
    for (size_t r = 0; r < rows->size(); ++r) {
        const bool isHeavy = data.matrix.values[2 * r] == 1.0f;
        (isHeavy ? heavy : light) += (*rows)[r];
        (isHeavy ? heavyRows : lightRows) += 1;
    }
    EXPECT_NEAR(light / lightRows, 0.05, 0.02);
    EXPECT_NEAR(heavy / heavyRows, 0.15, 0.02);

    auto programs = booster.predict(data.matrix);
    ASSERT_TRUE(programs);
    EXPECT_EQ(*programs, sumPacks(*rows, data.matrix.groupSizes));
    double squares = 0;
    for (size_t p = 0; p < programs->size(); ++p)
        squares += ((*programs)[p] - data.labels[p]) * ((*programs)[p] - data.labels[p]);
    EXPECT_LT(std::sqrt(squares / static_cast<double>(programs->size())), 0.03);
}

TEST(PackSumBooster, RowScoresFollowTheHiddenRowFunction)
{
    const auto data = makeSyntheticPacks(600, 16, 5);
    PackSumBooster booster(testSettings(100));
    ASSERT_TRUE(booster.train(data.matrix, data.labels));
    auto rows = booster.predictRows(data.matrix);
    ASSERT_TRUE(rows);
    EXPECT_GT(pairwiseAccuracy(*rows, data.rowTruth), 0.7);
}

TEST(PackSumBooster, StopsEarlyOnceTrainingRmseStopsImproving)
{
    const auto data = twoKindsOfRows(300, 7);
    PackSumBooster booster(testSettings());
    ASSERT_EQ(booster.settings().numBoostRound, 10000);
    auto stats = booster.train(data.matrix, data.labels);
    ASSERT_TRUE(stats);
    EXPECT_LT(stats->rounds, 2000);
    // Ansor's callback: evaluated on even rounds, stops at the first one 50 rounds after the best.
    EXPECT_EQ(stats->bestRound % 2, 0);
    EXPECT_EQ(stats->rounds, stats->bestRound + 50 + 1);
    EXPECT_LT(stats->bestRmse, 0.03);
    EXPECT_FALSE(stats->stopped);
}

TEST(PackSumBooster, SameSeedSameModel)
{
    const auto data = makeSyntheticPacks(100, 16, 9);
    PackSumSettings settings = testSettings(6);
    settings.nthread = 2;
    PackSumBooster a(settings), b(settings);
    ASSERT_TRUE(a.train(data.matrix, data.labels));
    ASSERT_TRUE(b.train(data.matrix, data.labels));
    EXPECT_TRUE(bitIdentical(a.predictRows(data.matrix).value(), b.predictRows(data.matrix).value()));
}

TEST(PackSumBooster, SaveLoadPredictsBitForBit)
{
    const auto data = makeSyntheticPacks(200, 164, 21);
    PackSumSettings settings = testSettings(30);
    settings.eta = 0.3;
    PackSumBooster booster(settings);
    ASSERT_TRUE(booster.train(data.matrix, data.labels));
    auto bytes = booster.save();
    ASSERT_TRUE(bytes) << bytes.error().toString();

    PackSumBooster loaded(testSettings());
    auto ok = loaded.load(*bytes);
    ASSERT_TRUE(ok) << ok.error().toString();
    EXPECT_EQ(loaded.settings(), settings);
    EXPECT_EQ(loaded.columns(), 164);
    EXPECT_EQ(loaded.rounds(), booster.rounds());
    const auto before = booster.predictRows(data.matrix).value();
    const auto after = loaded.predictRows(data.matrix).value();
    EXPECT_TRUE(bitIdentical(before, after));
    // And the loaded model saves to the same bytes.
    EXPECT_EQ(loaded.save().value(), *bytes);
}

TEST(PackSumBooster, LoadKeepsThisMachinesThreadCount)
{
    PackSumBooster booster = trainedOnTwoKinds(100);
    PackSumSettings two = testSettings();
    two.nthread = 2;
    PackSumBooster loaded(two);
    ASSERT_TRUE(loaded.load(booster.save().value()));
    EXPECT_EQ(loaded.settings().nthread, 2);
}

TEST(PackSumBooster, RefusesCorruptOrForeignBlobs)
{
    const auto data = twoKindsOfRows(100, 7);
    PackSumBooster booster = trainedOnTwoKinds(100);
    const std::vector<uint8_t> good = booster.save().value();
    const auto expected = booster.predictRows(data.matrix).value();

    auto refused = [&](std::vector<uint8_t> blob, const std::string& words) {
        auto loaded = booster.load(blob);
        ASSERT_FALSE(loaded) << words;
        EXPECT_EQ(loaded.error().kind, ErrorKind::Parse);
        EXPECT_NE(loaded.error().message.find("pack-sum booster: load: "), std::string::npos);
        EXPECT_NE(loaded.error().message.find(words), std::string::npos) << loaded.error().message;
        // The model in place is untouched.
        EXPECT_TRUE(bitIdentical(booster.predictRows(data.matrix).value(), expected));
    };

    refused({}, "too short");
    for (size_t size : { size_t { 7 }, size_t { 39 }, good.size() / 2, good.size() - 1 })
        refused(std::vector<uint8_t>(good.begin(), good.begin() + static_cast<long>(size)),
            size < 40 ? "too short" : "truncated");
    auto longer = good;
    longer.push_back(0);
    refused(longer, "truncated or corrupted");

    // One flipped bit anywhere after the magic: in the header, the settings, the model, the checksum.
    for (size_t at : { size_t { 8 }, size_t { 13 }, size_t { 17 }, size_t { 35 }, good.size() / 2, good.size() - 20,
             good.size() - 1 }) {
        auto flipped = good;
        flipped[at] ^= 0x10;
        auto loaded = booster.load(flipped);
        ASSERT_FALSE(loaded) << "flip at " << at;
        EXPECT_EQ(loaded.error().kind, ErrorKind::Parse);
    }
    auto flipped = good;
    flipped[good.size() / 2] ^= 0x01;
    refused(flipped, "checksum mismatch");

    auto wrongMagic = good;
    wrongMagic[0] = 'X';
    refused(wrongMagic, "TSXGBPS1");
    // Another model's bytes.
    RandomCostModel random(1);
    refused(random.save().value(), "TSXGBPS1");
    // A raw XGBoost model without our header (the part after the settings).
    const size_t settingsSize = good[20] | static_cast<size_t>(good[21]) << 8;
    refused(std::vector<uint8_t>(good.begin() + static_cast<long>(32 + settingsSize), good.end() - 8), "TSXGBPS1");
}

// A blob with a valid header and checksum around something that is not an XGBoost model: XGBoost's own
// error comes back as a Parse error with its text, and nothing aborts.
TEST(PackSumBooster, XgboostLoadErrorsComeBackAsErrors)
{
    const std::string settings = PackSumSettings {}.toJson();
    const std::string model = R"({"learner": {"not": "a model"}, "version": [1, 7, 4]})";
    std::vector<uint8_t> blob { 'T', 'S', 'X', 'G', 'B', 'P', 'S', '1' };
    auto put = [&](uint64_t value, int bytes) {
        for (int i = 0; i < bytes; ++i)
            blob.push_back(static_cast<uint8_t>(value >> (8 * i)));
    };
    put(1, 4);
    put(2, 4);
    put(1, 4);
    put(settings.size(), 4);
    put(model.size(), 8);
    blob.insert(blob.end(), settings.begin(), settings.end());
    blob.insert(blob.end(), model.begin(), model.end());
    uint64_t hash = 0xcbf29ce484222325ull;
    for (uint8_t byte : blob)
        hash = (hash ^ byte) * 0x100000001b3ull;
    put(hash, 8);

    PackSumBooster booster;
    auto loaded = booster.load(blob);
    ASSERT_FALSE(loaded);
    EXPECT_EQ(loaded.error().kind, ErrorKind::Parse);
    EXPECT_NE(loaded.error().message.find("XGBoost XGBoosterLoadModelFromBuffer failed: "), std::string::npos)
        << loaded.error().message;
    EXPECT_FALSE(booster.trained());
}

TEST(PackSumBooster, BadInputIsAnError)
{
    PackSumBooster booster;
    const auto data = twoKindsOfRows(50, 1);
    auto untrained = booster.predict(data.matrix);
    ASSERT_FALSE(untrained);
    EXPECT_NE(untrained.error().message.find("not trained"), std::string::npos);
    EXPECT_FALSE(booster.save());

    auto fewerLabels = booster.train(data.matrix, std::span(data.labels).first(10));
    ASSERT_FALSE(fewerLabels);
    EXPECT_NE(fewerLabels.error().message.find("10 labels for 50 programs"), std::string::npos);

    auto badGroups = data.matrix;
    badGroups.groupSizes.back() += 1;
    auto groups = booster.train(badGroups, data.labels);
    ASSERT_FALSE(groups);
    EXPECT_EQ(groups.error().kind, ErrorKind::InvalidArgument);
    EXPECT_NE(groups.error().message.find("group sizes add up to"), std::string::npos);

    booster = trainedOnTwoKinds(100);
    PackedMatrix wide { 3, std::vector<float>(6, 0.0f), { 2 } };
    auto columns = booster.predict(wide);
    ASSERT_FALSE(columns);
    EXPECT_NE(columns.error().message.find("3 columns, the model was trained on 2"), std::string::npos);

    // A program without rows scores 0; one with rows scores the sum.
    PackedMatrix sparse { 2, { 1.0f, 0.5f }, { 0, 1, 0 } };
    auto scores = booster.predict(sparse);
    ASSERT_TRUE(scores);
    ASSERT_EQ(scores->size(), 3u);
    EXPECT_EQ((*scores)[0], 0.0f);
    EXPECT_NEAR((*scores)[1], 0.15f, 0.01);
    EXPECT_EQ((*scores)[2], 0.0f);
}

TEST(PackSumBooster, SettingsRoundTripThroughJson)
{
    PackSumSettings settings;
    settings.maxDepth = 6;
    settings.eta = 0.05;
    settings.seed = 1234567890123ull;
    settings.treeMethod = "exact";
    settings.baseScore = 0.1;
    auto parsed = PackSumSettings::fromJson(settings.toJson());
    ASSERT_TRUE(parsed) << parsed.error().toString();
    EXPECT_EQ(*parsed, settings);
    EXPECT_NE(PackSumSettings {}.toJson().find("\"max_depth\":10,\"gamma\":0.001,\"min_child_weight\":0.0,\"eta\":0.2"),
        std::string::npos)
        << PackSumSettings {}.toJson();

    EXPECT_EQ(PackSumSettings::fromJson("{\"eta\":0.1}")->eta, 0.1);
    auto unknown = PackSumSettings::fromJson("{\"max_dpth\":3}");
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("unknown key \"max_dpth\""), std::string::npos);
    auto wrongType = PackSumSettings::fromJson("{\"max_depth\":\"ten\"}");
    ASSERT_FALSE(wrongType);
    EXPECT_NE(wrongType.error().message.find("wrong type"), std::string::npos);
    auto outOfRange = PackSumSettings::fromJson("{\"tree_method\":\"gpu_hist\"}");
    ASSERT_FALSE(outOfRange);
    EXPECT_EQ(outOfRange.error().kind, ErrorKind::InvalidArgument);
    EXPECT_FALSE(PackSumSettings::fromJson("[1,2]"));
}

TEST(PackSumBooster, TrainsOnAWorkerThreadAndPredictsOnAnother)
{
    const auto data = twoKindsOfRows(200, 4);
    PackSumBooster booster(testSettings());
    std::thread worker([&] { ASSERT_TRUE(booster.train(data.matrix, data.labels)); });
    worker.join();
    auto scores = booster.predict(data.matrix);
    ASSERT_TRUE(scores);
    EXPECT_NEAR((*scores)[0], data.labels[0], 0.02);
}

TEST(PackSumBooster, AStopBeforeTheFirstRoundKeepsThePreviousModel)
{
    const auto data = twoKindsOfRows(100, 2);
    PackSumBooster booster;
    std::stop_source stop;
    stop.request_stop();
    auto stats = booster.train(data.matrix, data.labels, {}, stop.get_token());
    ASSERT_TRUE(stats);
    EXPECT_TRUE(stats->stopped);
    EXPECT_EQ(stats->rounds, 0);
    EXPECT_FALSE(booster.trained());
}

} // namespace ts::cost

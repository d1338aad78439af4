// PackSumBooster's settings as JSON, and the model as bytes (save/load). See xgb_booster.h.
//
// Saved layout, integers little-endian:
//   0  magic "TSXGBPS1"          8 bytes
//   8  format version            u32 (1)
//  12  columns                   u32
//  16  rounds (trees)            u32
//  20  settings length S         u32
//  24  model length M            u64
//  32  settings JSON             S bytes
//  32+S  XGBoost UBJSON model    M bytes
//  32+S+M  FNV-1a 64 of every byte before it   u64
// XGBoost's own loader trusts its input (a corrupt UBJSON or legacy-binary model can make it read out of
// bounds), so load() checks the size and the checksum before XGBoost sees a byte.
#include "core/cost/byte_io.h"
#include "core/cost/xgb_api.h"
#include "core/cost/xgb_booster.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>

namespace ts::cost {

namespace {
    constexpr std::array<uint8_t, 8> kMagic { 'T', 'S', 'X', 'G', 'B', 'P', 'S', '1' };
    constexpr uint32_t kFormatVersion = 1;
    constexpr size_t kHeaderSize = 32;
    constexpr size_t kChecksumSize = 8;

    uint64_t fnv1a(std::span<const uint8_t> bytes)
    {
        return fnv1a64(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    }

    Error parseError(const std::string& message)
    {
        return makeError(ErrorKind::Parse, "pack-sum booster: load: " + message);
    }

    using Json = nlohmann::ordered_json;

    // One settings field: its JSON name and how to read it.
    struct Field {
        const char* name;
        std::function<bool(const Json&, PackSumSettings&)> read; // false: wrong type
    };

    template <typename T> std::function<bool(const Json&, PackSumSettings&)> integer(T PackSumSettings::*member)
    {
        return [member](const Json& value, PackSumSettings& settings) {
            if (!value.is_number_integer())
                return false;
            if constexpr (std::is_unsigned_v<T>) {
                if (!value.is_number_unsigned())
                    return false;
            }
            settings.*member = value.get<T>();
            return true;
        };
    }

    std::function<bool(const Json&, PackSumSettings&)> real(double PackSumSettings::*member)
    {
        return [member](const Json& value, PackSumSettings& settings) {
            if (!value.is_number())
                return false;
            settings.*member = value.get<double>();
            return true;
        };
    }

    std::function<bool(const Json&, PackSumSettings&)> text(std::string PackSumSettings::*member)
    {
        return [member](const Json& value, PackSumSettings& settings) {
            if (!value.is_string())
                return false;
            settings.*member = value.get<std::string>();
            return true;
        };
    }

    const std::vector<Field>& fields()
    {
        static const std::vector<Field> all {
            { "max_depth", integer(&PackSumSettings::maxDepth) },
            { "gamma", real(&PackSumSettings::gamma) },
            { "min_child_weight", real(&PackSumSettings::minChildWeight) },
            { "eta", real(&PackSumSettings::eta) },
            { "seed", integer(&PackSumSettings::seed) },
            { "nthread", integer(&PackSumSettings::nthread) },
            { "num_boost_round", integer(&PackSumSettings::numBoostRound) },
            { "early_stopping_rounds", integer(&PackSumSettings::earlyStoppingRounds) },
            { "eval_every", integer(&PackSumSettings::evalEvery) },
            { "early_stopping_min_delta", real(&PackSumSettings::earlyStoppingMinDelta) },
            { "tree_method", text(&PackSumSettings::treeMethod) },
            { "base_score", real(&PackSumSettings::baseScore) },
            { "objective", text(&PackSumSettings::objective) },
        };
        return all;
    }
} // namespace

namespace xgb {
    Expected<void> validate(const PackSumSettings& s)
    {
        auto bad = [](const std::string& what) {
            return makeError(ErrorKind::InvalidArgument, "pack-sum booster settings: " + what);
        };
        if (s.maxDepth < 1 || s.maxDepth > 30)
            return bad("max_depth must be in [1, 30], got " + std::to_string(s.maxDepth));
        if (!(s.gamma >= 0) || !std::isfinite(s.gamma))
            return bad("gamma must be >= 0");
        if (!(s.minChildWeight >= 0) || !std::isfinite(s.minChildWeight))
            return bad("min_child_weight must be >= 0");
        if (!(s.eta > 0 && s.eta <= 1))
            return bad("eta must be in (0, 1]");
        if (s.seed > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
            return bad("seed must fit XGBoost's int64 seed");
        if (s.nthread < 1)
            return bad("nthread must be >= 1, got " + std::to_string(s.nthread));
        if (s.numBoostRound < 1)
            return bad("num_boost_round must be >= 1, got " + std::to_string(s.numBoostRound));
        if (s.earlyStoppingRounds < 0)
            return bad("early_stopping_rounds must be >= 0 (0: never stop early)");
        if (!(s.earlyStoppingMinDelta >= 0.0 && s.earlyStoppingMinDelta < 1.0))
            return bad("early_stopping_min_delta must be in [0, 1)");
        if (s.evalEvery < 1)
            return bad("eval_every must be >= 1, got " + std::to_string(s.evalEvery));
        static const std::array<std::string, 4> kMethods { "auto", "exact", "approx", "hist" };
        if (std::find(kMethods.begin(), kMethods.end(), s.treeMethod) == kMethods.end())
            return bad("tree_method must be auto, exact, approx or hist, got \"" + s.treeMethod + "\"");
        if (s.objective != "pack-sum-mse" && s.objective != "pack-sum-rank")
            return bad("objective must be pack-sum-mse or pack-sum-rank, got \"" + s.objective + "\"");
        if (!std::isfinite(s.baseScore))
            return bad("base_score must be finite");
        return {};
    }
} // namespace xgb

std::string PackSumSettings::toJson() const
{
    Json json = Json::object();
    json["max_depth"] = maxDepth;
    json["gamma"] = gamma;
    json["min_child_weight"] = minChildWeight;
    json["eta"] = eta;
    json["seed"] = seed;
    json["nthread"] = nthread;
    json["num_boost_round"] = numBoostRound;
    json["early_stopping_rounds"] = earlyStoppingRounds;
    json["eval_every"] = evalEvery;
    json["early_stopping_min_delta"] = earlyStoppingMinDelta;
    json["tree_method"] = treeMethod;
    json["base_score"] = baseScore;
    json["objective"] = objective;
    return json.dump();
}

Expected<PackSumSettings> PackSumSettings::fromJson(std::string_view text)
{
    const Json json = Json::parse(text.begin(), text.end(), nullptr, false);
    if (json.is_discarded() || !json.is_object())
        return makeError(ErrorKind::Parse, "pack-sum booster settings: not a JSON object");
    PackSumSettings settings;
    for (const auto& [key, value] : json.items()) {
        const auto& all = fields();
        auto field = std::find_if(all.begin(), all.end(), [&](const Field& f) { return key == f.name; });
        if (field == all.end())
            return makeError(ErrorKind::Parse, "pack-sum booster settings: unknown key \"" + key + "\"");
        if (!field->read(value, settings))
            return makeError(
                ErrorKind::Parse, "pack-sum booster settings: \"" + key + "\" has the wrong type: " + value.dump());
    }
    TS_CHECK(xgb::validate(settings));
    return settings;
}

Expected<std::vector<uint8_t>> PackSumBooster::save() const
{
    if (!m_booster)
        return makeError(ErrorKind::InvalidArgument, "pack-sum booster: save: the model is not trained");
    TS_CHECK(xgb::silence());
    bst_ulong length = 0;
    const char* model = nullptr;
    TS_CHECK(xgb::check(XGBoosterSaveModelToBuffer(m_booster->get(), "{\"format\":\"ubj\"}", &length, &model),
        "XGBoosterSaveModelToBuffer"));
    const std::string settings = m_settings.toJson();

    std::vector<uint8_t> bytes(kMagic.begin(), kMagic.end());
    bytes.reserve(kHeaderSize + settings.size() + length + kChecksumSize);
    le::put(bytes, kFormatVersion, 4);
    le::put(bytes, static_cast<uint64_t>(m_columns), 4);
    le::put(bytes, static_cast<uint64_t>(m_rounds), 4);
    le::put(bytes, settings.size(), 4);
    le::put(bytes, length, 8);
    bytes.insert(bytes.end(), settings.begin(), settings.end());
    bytes.insert(bytes.end(), model, model + length);
    le::put(bytes, fnv1a(bytes), 8);
    return bytes;
}

Expected<void> PackSumBooster::load(std::span<const uint8_t> bytes)
{
    if (bytes.size() < kHeaderSize + kChecksumSize)
        return parseError(std::to_string(bytes.size()) + " bytes is too short for a saved booster (at least "
            + std::to_string(kHeaderSize + kChecksumSize) + ")");
    if (!std::equal(kMagic.begin(), kMagic.end(), bytes.begin()))
        return parseError("not a TuneScope pack-sum booster (the bytes do not start with \"TSXGBPS1\")");
    const uint64_t version = le::get(bytes, 8, 4);
    if (version != kFormatVersion)
        return parseError("format version " + std::to_string(version) + " is not supported (this build reads "
            + std::to_string(kFormatVersion) + ")");
    const uint64_t columns = le::get(bytes, 12, 4);
    const uint64_t rounds = le::get(bytes, 16, 4);
    const uint64_t settingsSize = le::get(bytes, 20, 4);
    const uint64_t modelSize = le::get(bytes, 24, 8);
    const uint64_t available = bytes.size() - kHeaderSize - kChecksumSize;
    if (settingsSize > available || modelSize != available - settingsSize)
        return parseError("the header announces " + std::to_string(settingsSize) + " + " + std::to_string(modelSize)
            + " bytes of settings and model, the blob holds " + std::to_string(available)
            + " (truncated or corrupted)");
    const size_t body = bytes.size() - kChecksumSize;
    if (le::get(bytes, body, 8) != fnv1a(bytes.first(body)))
        return parseError("checksum mismatch: the saved booster is corrupted");
    if (columns == 0 || columns > (1u << 24) || rounds == 0 || rounds > (1u << 24))
        return parseError(
            "implausible shape: " + std::to_string(columns) + " columns, " + std::to_string(rounds) + " rounds");

    const auto settingsText = bytes.subspan(kHeaderSize, settingsSize);
    TS_TRY(auto settings,
        PackSumSettings::fromJson(std::string_view(reinterpret_cast<const char*>(settingsText.data()), settingsSize)));
    settings.nthread = m_settings.nthread; // a property of this machine, not of the model
    TS_TRY(auto booster, xgb::createBooster(settings, nullptr));
    const auto model = bytes.subspan(kHeaderSize + settingsSize, modelSize);
    TS_CHECK(xgb::check(XGBoosterLoadModelFromBuffer(booster->get(), model.data(), model.size()),
        "XGBoosterLoadModelFromBuffer", ErrorKind::Parse));
    bst_ulong features = 0;
    int boosted = 0;
    TS_CHECK(xgb::check(XGBoosterGetNumFeature(booster->get(), &features), "XGBoosterGetNumFeature"));
    TS_CHECK(xgb::check(XGBoosterBoostedRounds(booster->get(), &boosted), "XGBoosterBoostedRounds"));
    if (features != columns || static_cast<uint64_t>(boosted) != rounds)
        return parseError("the model has " + std::to_string(features) + " features and " + std::to_string(boosted)
            + " rounds, the header says " + std::to_string(columns) + " and " + std::to_string(rounds));

    m_settings = std::move(settings);
    m_booster = std::move(booster);
    m_columns = static_cast<int>(columns);
    m_rounds = static_cast<int>(rounds);
    return {};
}

} // namespace ts::cost

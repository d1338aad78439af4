// The dataset's train/validation/test splits (dataset.h).
#include "core/store/dataset.h"
#include "core/support/rng.h"
#include "core/support/strings.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ts::store {

namespace {

    Expected<void> checkFractions(double test, double validation)
    {
        auto fraction = [](double f) { return std::isfinite(f) && f >= 0.0 && f <= 1.0; };
        if (!fraction(test))
            return makeError(
                ErrorKind::InvalidArgument, "the test fraction must be between 0 and 1, not " + formatFixed(test, 3));
        if (!fraction(validation))
            return makeError(ErrorKind::InvalidArgument,
                "the validation fraction must be between 0 and 1, not " + formatFixed(validation, 3));
        if (test + validation > 1.0)
            return makeError(ErrorKind::InvalidArgument,
                "the test and validation fractions add up to more than 1 (" + formatFixed(test, 3) + " + "
                    + formatFixed(validation, 3) + ")");
        return {};
    }

    // round(fraction * count), halves up, at most count.
    size_t share(double fraction, size_t count)
    {
        const auto n = static_cast<size_t>(std::floor(fraction * static_cast<double>(count) + 0.5));
        return std::min(n, count);
    }

    enum class Part { Train, Validation, Test };

    // The split that gives each record its task's part.
    DatasetSplit byTaskParts(const Dataset& dataset, const std::vector<Part>& taskPart)
    {
        DatasetSplit out;
        for (size_t i = 0; i < dataset.records.size(); ++i) {
            switch (taskPart[dataset.records[i].task]) {
            case Part::Train:
                out.train.push_back(i);
                break;
            case Part::Validation:
                out.validation.push_back(i);
                break;
            case Part::Test:
                out.test.push_back(i);
                break;
            }
        }
        return out;
    }

    // Moves a seeded `fraction` of the training tasks to validation.
    void takeValidationTasks(std::vector<Part>& taskPart, double fraction, Rng& rng)
    {
        std::vector<size_t> train;
        for (size_t t = 0; t < taskPart.size(); ++t)
            if (taskPart[t] == Part::Train)
                train.push_back(t);
        rng.shuffle(train);
        const size_t n = share(fraction, train.size());
        for (size_t i = 0; i < n; ++i)
            taskPart[train[i]] = Part::Validation;
    }

} // namespace

Expected<DatasetSplit> splitByNetworks(
    const Dataset& dataset, std::span<const std::string> testNetworks, const SplitOptions& options)
{
    TS_CHECK(checkFractions(0.0, options.validationFraction));
    std::set<std::string> known;
    for (const DatasetNetwork& n : dataset.networks)
        known.insert(n.name);
    for (const std::string& name : testNetworks)
        if (!known.contains(name))
            return makeError(ErrorKind::InvalidArgument,
                "no network named '" + name + "' in the dataset"
                    + (known.empty() ? std::string(" (it has none)") : " (it has: " + join(known, ", ") + ")"));
    const std::set<std::string> held(testNetworks.begin(), testNetworks.end());
    // Every task of a held-out network is a test task, whatever other network also holds it.
    std::vector<Part> taskPart(dataset.tasks.size(), Part::Train);
    for (const DatasetNetwork& n : dataset.networks)
        if (held.contains(n.name))
            for (const NetworkTasks::Member& m : n.tasks)
                taskPart[m.task] = Part::Test;
    Rng rng(options.seed);
    takeValidationTasks(taskPart, options.validationFraction, rng);
    return byTaskParts(dataset, taskPart);
}

Expected<DatasetSplit> splitByTasks(const Dataset& dataset, double testFraction, const SplitOptions& options)
{
    TS_CHECK(checkFractions(testFraction, options.validationFraction));
    std::vector<size_t> order(dataset.tasks.size());
    for (size_t t = 0; t < order.size(); ++t)
        order[t] = t;
    Rng rng(options.seed);
    rng.shuffle(order);
    const size_t tests = share(testFraction, order.size());
    const size_t validations = std::min(share(options.validationFraction, order.size()), order.size() - tests);
    std::vector<Part> taskPart(dataset.tasks.size(), Part::Train);
    for (size_t i = 0; i < tests + validations; ++i)
        taskPart[order[i]] = i < tests ? Part::Test : Part::Validation;
    return byTaskParts(dataset, taskPart);
}

Expected<DatasetSplit> splitByTime(const Dataset& dataset, double testFraction, const SplitOptions& options)
{
    TS_CHECK(checkFractions(testFraction, options.validationFraction));
    // Dataset::records are in record id order, so each task's list is too.
    std::vector<std::vector<size_t>> byTask(dataset.tasks.size());
    for (size_t i = 0; i < dataset.records.size(); ++i)
        byTask[dataset.records[i].task].push_back(i);
    DatasetSplit out;
    for (const std::vector<size_t>& records : byTask) {
        const size_t n = records.size();
        const size_t tests = share(testFraction, n);
        const size_t validations = std::min(share(options.validationFraction, n), n - tests);
        const size_t trains = n - tests - validations;
        out.train.insert(out.train.end(), records.begin(), records.begin() + static_cast<ptrdiff_t>(trains));
        out.validation.insert(out.validation.end(), records.begin() + static_cast<ptrdiff_t>(trains),
            records.begin() + static_cast<ptrdiff_t>(trains + validations));
        out.test.insert(out.test.end(), records.begin() + static_cast<ptrdiff_t>(trains + validations), records.end());
    }
    for (std::vector<size_t>* part : { &out.train, &out.validation, &out.test })
        std::sort(part->begin(), part->end());
    return out;
}

Expected<std::vector<size_t>> shareOfRecords(const Dataset& dataset, std::span<const size_t> records, double fraction,
    std::optional<int64_t> device, uint64_t seed)
{
    if (!(fraction > 0.0 && fraction <= 1.0))
        return makeError(ErrorKind::InvalidArgument, "a share must be in (0, 1], got " + std::to_string(fraction));
    Rng rng(seed * 31 + 7);
    std::vector<size_t> kept;
    for (const RecordGroup& group : groupByTaskDevice(dataset, records)) {
        std::vector<size_t> members = group.records;
        if (!device || group.deviceId == *device) {
            rng.shuffle(members);
            const auto n = static_cast<size_t>(std::ceil(fraction * static_cast<double>(members.size())));
            members.resize(std::max<size_t>(1, std::min(n, members.size())));
        }
        kept.insert(kept.end(), members.begin(), members.end());
    }
    std::sort(kept.begin(), kept.end());
    return kept;
}

} // namespace ts::store

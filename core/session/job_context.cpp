#include "core/session/job_context.h"

namespace ts::session {

bool JobContext::reportProgress(double fraction, std::string message)
{
    if (!m_sink || !m_throttle.admit())
        return false;
    m_sink(JobProgress { fraction, std::move(message) });
    return true;
}

} // namespace ts::session

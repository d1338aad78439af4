#include "core/session/progress_throttle.h"

namespace ts::session {

bool ProgressThrottle::admit(Clock::time_point now)
{
    if (m_lastAdmitted && now - *m_lastAdmitted < m_interval)
        return false;
    m_lastAdmitted = now;
    return true;
}

} // namespace ts::session

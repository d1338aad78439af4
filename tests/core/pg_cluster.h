// A private PostgreSQL server for tests: Debian's initdb and pg_ctl in a temporary folder, on a free port of
// 127.0.0.1, with password (SCRAM) authentication over TCP and the password in a PGPASSFILE the test
// process points libpq at. The server refuses to run as root, so under root (CI) it runs as `nobody`.
// One server per test process (PgCluster::shared()), stopped when the process exits; each test takes a
// fresh database from it. A test that cannot start the server fails with initdb's or pg_ctl's own words.
#pragma once

#include "core/store/database.h"

#include <arpa/inet.h>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <netinet/in.h>
#include <pwd.h>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/socket.h>
#include <unistd.h>

namespace ts::store::test {

class PgCluster {
public:
    static constexpr const char* kUser = "tunescope";

    static PgCluster& shared()
    {
        static std::unique_ptr<PgCluster> cluster(new PgCluster());
        return *cluster;
    }

    ~PgCluster()
    {
        if (!m_dataDir.empty())
            (void)std::system(
                (m_asUser + m_bin + "/pg_ctl -D " + m_dataDir + " -m immediate -w stop >/dev/null 2>&1").c_str());
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
    }

    int port() const { return m_port; }
    const std::string& password() const { return m_password; }
    // postgresql://tunescope@127.0.0.1:PORT/DB: the password comes from PGPASSFILE.
    std::string url(const std::string& database) const
    {
        return std::string("postgresql://") + kUser + "@127.0.0.1:" + std::to_string(m_port) + "/" + database;
    }
    // A new empty database; its URL.
    std::string createDatabase()
    {
        static std::atomic<int> counter { 0 };
        const std::string name = "ws" + std::to_string(::getpid()) + "_" + std::to_string(++counter);
        auto admin = Connection::openPostgres(url("postgres"), false);
        if (!admin)
            throw std::runtime_error(admin.error().message);
        if (auto created = admin->exec("CREATE DATABASE " + name); !created)
            throw std::runtime_error(created.error().message);
        return url(name);
    }
    // Runs SQL on a database as the superuser (a test's own setup: another application's tables, a damaged row).
    void execOn(const std::string& databaseUrl, const std::string& sql)
    {
        auto db = Connection::openPostgres(databaseUrl, false);
        if (!db)
            throw std::runtime_error(db.error().message);
        if (auto done = db->exec(sql); !done)
            throw std::runtime_error(done.error().message);
    }

private:
    PgCluster()
    {
        m_bin = findBin();
        std::string pattern = (std::filesystem::temp_directory_path() / "ts_pg_XXXXXX").string();
        if (!mkdtemp(pattern.data()))
            throw std::runtime_error("cannot make a folder for the PostgreSQL test server");
        m_dir = pattern;
        m_dataDir = m_dir + "/data";
        m_password = "ts-" + std::to_string(std::random_device {}());
        writeFile(m_dir + "/pw", m_password + "\n");
        if (::geteuid() == 0) {
            const passwd* nobody = ::getpwnam("nobody");
            if (!nobody)
                throw std::runtime_error("running as root and no user 'nobody' to run the PostgreSQL server as");
            if (::chown(m_dir.c_str(), nobody->pw_uid, nobody->pw_gid) != 0
                || ::chown((m_dir + "/pw").c_str(), nobody->pw_uid, nobody->pw_gid) != 0)
                throw std::runtime_error("cannot hand " + m_dir + " to user nobody");
            m_asUser = "setpriv --reuid=" + std::to_string(nobody->pw_uid)
                + " --regid=" + std::to_string(nobody->pw_gid) + " --clear-groups ";
        }
        run(m_bin + "/initdb -D " + m_dataDir + " -U " + kUser + " --pwfile=" + m_dir
                + "/pw -A scram-sha-256 --auth-local=trust -E UTF8 --no-locale -N",
            "initdb");
        for (int attempt = 0;; ++attempt) {
            m_port = freePort();
            const std::string options = "-p " + std::to_string(m_port) + " -k " + m_dir
                + " -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                  " -c max_connections=60 -c shared_buffers=32MB";
            const int rc = std::system((m_asUser + m_bin + "/pg_ctl -D " + m_dataDir + " -l " + m_dir
                + "/server.log -w -t 60 -o \"" + options + "\" start >/dev/null 2>&1")
                                           .c_str());
            if (rc == 0)
                break;
            if (attempt == 2)
                throw std::runtime_error("pg_ctl start failed: " + readFile(m_dir + "/server.log"));
        }
        // libpq refuses a password file that others can read: 0600, owned by this process's user.
        const std::string passFile = m_dir + "/pgpass";
        writeFile(passFile, "127.0.0.1:" + std::to_string(m_port) + ":*:" + kUser + ":" + m_password + "\n");
        std::filesystem::permissions(passFile, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
            std::filesystem::perm_options::replace);
        ::setenv("PGPASSFILE", passFile.c_str(), 1);
        ::setenv("PGCONNECT_TIMEOUT", "10", 1);
    }

    static std::string findBin()
    {
        std::string best;
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ec))
            if (std::filesystem::exists(entry.path() / "bin" / "initdb") && entry.path().string() > best)
                best = entry.path().string();
        if (best.empty())
            throw std::runtime_error("no PostgreSQL server under /usr/lib/postgresql: install Debian's postgresql "
                                     "package (./setup.sh deps)");
        return best + "/bin";
    }

    static int freePort()
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t size = sizeof address;
        if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0
            || ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
            ::close(fd);
            throw std::runtime_error("cannot find a free port");
        }
        ::close(fd);
        return ntohs(address.sin_port);
    }

    void run(const std::string& command, const char* what)
    {
        const std::string log = m_dir + "/" + what + ".log";
        if (std::system((m_asUser + command + " >" + log + " 2>&1").c_str()) != 0)
            throw std::runtime_error(std::string(what) + " failed: " + readFile(log));
    }

    static void writeFile(const std::string& path, const std::string& text)
    {
        std::ofstream(path, std::ios::trunc) << text;
    }
    static std::string readFile(const std::string& path)
    {
        std::ifstream in(path);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }

    std::string m_bin;
    std::string m_dir;
    std::string m_dataDir;
    std::string m_password;
    std::string m_asUser;
    int m_port = 0;
};

} // namespace ts::store::test

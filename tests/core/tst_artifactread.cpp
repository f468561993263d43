// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's `read` server: files under the job folders only (symbolic links judged by where
// they lead), slices of at most kMaxReadChunk bytes, the whole file's SHA-256 at offset 0.
#include "bundle/bundle.h"
#include "pipeline/artifactread.h"

#include <QByteArray>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <filesystem>
#include <fstream>

using namespace AotStudio;
using Protocol::Json;

class TestArtifactRead : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::filesystem::path m_job, m_outside;

    Json read(const Pipeline::ArtifactReader &reader, const std::string &path, Json extra = Json::object(),
              Json *log = nullptr)
    {
        Json body{{"type", "read"}, {"id", 7}, {"path", path}};
        body.update(extra);
        return reader.serve(Protocol::Request{"read", 7, body}, log);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const std::filesystem::path root = m_dir.path().toStdString();
        m_job = root / "jobs" / "compile-1";
        m_outside = root / "secret.txt";
        std::filesystem::create_directories(m_job / "snapshots");
        std::ofstream(m_job / "kernels.json") << R"({"format":"aotstudio.kernels"})";
        std::ofstream(m_outside) << "not yours";
        std::filesystem::create_symlink(m_outside, m_job / "escape.txt");
        std::string big(Pipeline::kMaxReadChunk + 1000, 'x');
        big[17] = '\n';
        std::ofstream(m_job / "big.bin", std::ios::binary) << big;
    }

    void readsAFileWithItsHash()
    {
        Pipeline::ArtifactReader reader;
        reader.addFolder(m_job);
        const Json data = read(reader, (m_job / "kernels.json").string());
        QCOMPARE(QString::fromStdString(data.value("type", "")), QStringLiteral("data"));
        const QByteArray bytes = QByteArray::fromBase64(QByteArray::fromStdString(data.value("data", "")));
        QCOMPARE(bytes, QByteArray(R"({"format":"aotstudio.kernels"})"));
        QCOMPARE(data.value("size", 0), bytes.size());
        QVERIFY(data.value("eof", false));
        QCOMPARE(data.value("sha256", ""), Bundle::sha256File(m_job / "kernels.json"));
    }

    void bigFilesComeInChunks()
    {
        Pipeline::ArtifactReader reader;
        reader.addFolder(m_job);
        const std::string path = (m_job / "big.bin").string();
        const Json first = read(reader, path, Json{{"length", 1u << 30}});
        QCOMPARE(first.value("length", std::uint64_t(0)), std::uint64_t(Pipeline::kMaxReadChunk));
        QVERIFY(!first.value("eof", true));
        QVERIFY(first.dump().size() < Protocol::kMaxLineBytes);
        const Json rest = read(reader, path, Json{{"offset", Pipeline::kMaxReadChunk}});
        QCOMPARE(rest.value("length", 0), 1000);
        QVERIFY(rest.value("eof", false));
        QVERIFY(!rest.contains("sha256")); // hashed once, at offset 0
    }

    void refusesPathsOutsideTheJobFolders_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("outside") << QString::fromStdString(m_outside.string());
        QTest::newRow("dotdot") << QString::fromStdString((m_job / ".." / ".." / "secret.txt").string());
        QTest::newRow("symlink out") << QString::fromStdString((m_job / "escape.txt").string());
        QTest::newRow("relative") << QStringLiteral("kernels.json");
        QTest::newRow("missing outside") << QStringLiteral("/etc/no-such-file-here");
    }
    void refusesPathsOutsideTheJobFolders()
    {
        QFETCH(QString, path);
        Pipeline::ArtifactReader reader;
        reader.addFolder(m_job);
        Json log;
        const Json answer = read(reader, path.toStdString(), Json::object(), &log);
        QCOMPARE(QString::fromStdString(answer.value("type", "")), QStringLiteral("error"));
        QCOMPARE(QString::fromStdString(answer.value("code", "")), QStringLiteral("refused"));
        QVERIFY(answer.value("message", "").find("refused") != std::string::npos);
        QCOMPARE(QString::fromStdString(log.value("level", "")), QStringLiteral("warning")); // logged
        QVERIFY(answer.dump().find("not yours") == std::string::npos);
    }

    void missingFileInsideIsNotFound()
    {
        Pipeline::ArtifactReader reader;
        reader.addFolder(m_job);
        const Json answer = read(reader, (m_job / "trace.json").string());
        QCOMPARE(QString::fromStdString(answer.value("code", "")), QStringLiteral("not_found"));
        QCOMPARE(QString::fromStdString(read(reader, m_job.string()).value("code", "")), QStringLiteral("bad_request"));
        QCOMPARE(QString::fromStdString(read(reader, (m_job / "kernels.json").string(), Json{{"offset", -1}}).value("code", "")),
                 QStringLiteral("bad_request"));
    }

    void compressedSlicesWhenAsked()
    {
        Pipeline::ArtifactReader reader;
        reader.addFolder(m_job);
        const std::filesystem::path path = m_job / "snapshots" / "001_capture.json";
        std::string text;
        for (int i = 0; i < 2000; ++i)
            text += "{\"id\":\"relu_" + std::to_string(i) + "\",\"op\":\"call_function\",\"target\":\"aten.relu.default\"},";
        std::ofstream(path) << text;
        const Json data = read(reader, path.string(), Json{{"compress", true}});
        const QByteArray packed = QByteArray::fromBase64(QByteArray::fromStdString(data.value("data", "")));
        QCOMPARE(data.value("length", std::size_t(0)), text.size()); // the uncompressed bytes
#ifdef AOTSTUDIO_HAVE_ZLIB
        QCOMPARE(QString::fromStdString(data.value("encoding", "")), QStringLiteral("zlib"));
        QVERIFY(std::size_t(packed.size()) < text.size() / 4);
        QByteArray withSize(4, '\0');
        qToBigEndian(quint32(text.size()), withSize.data());
        QCOMPARE(qUncompress(withSize + packed), QByteArray::fromStdString(text));
#else
        QCOMPARE(packed, QByteArray::fromStdString(text));
#endif
        // Not asked: raw bytes.
        QVERIFY(!read(reader, path.string()).contains("encoding"));
    }

    void base64MatchesQt()
    {
        for (const std::string s : {"", "a", "ab", "abc", "abcd", "\x01\xff\x80 binary"}) {
            QCOMPARE(QByteArray::fromStdString(Pipeline::base64Encode(s.data(), s.size())),
                     QByteArray::fromStdString(s).toBase64());
        }
    }
};

QTEST_GUILESS_MAIN(TestArtifactRead)
#include "tst_artifactread.moc"

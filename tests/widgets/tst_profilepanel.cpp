// SPDX-License-Identifier: GPL-3.0-or-later
#include <QTest>
class TestProfilePanel : public QObject
{
    Q_OBJECT
};
QTEST_MAIN(TestProfilePanel)
#include "tst_profilepanel.moc"

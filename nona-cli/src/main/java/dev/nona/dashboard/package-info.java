/**
 * The live page ({@code bin/nona dashboard}, {@code bin/nona demo --dashboard}): a reader of the controller's
 * topics ({@link dev.nona.dashboard.TopicFeed}) folds them into a {@link dev.nona.dashboard.DashboardState}, whose
 * snapshots a small JDK HTTP server ({@link dev.nona.dashboard.DashboardServer}) serves as JSON to one page that
 * polls it and draws with uPlot (a WebJar on the classpath).
 */
package dev.nona.dashboard;

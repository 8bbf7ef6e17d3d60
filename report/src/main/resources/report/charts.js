// verify-board's report (report module, docs/witnesses.md "The report"): draws its two charts
// with Chart.js (inlined before this script) from the report's data (the JSON in #report-data).
// The same numbers are in the tables beside each chart, which is what a screen reader and a
// printer without scripts read.
'use strict';

(function () {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  Chart.defaults.animation = false;
  Chart.defaults.font.family = 'system-ui, sans-serif';
  Chart.defaults.color = '#1d1d1b';
  // Okabe-Ito colours (distinguishable with the common colour-vision deficiencies), then greys
  const palette = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000',
    '#666666', '#999999'];
  const iso = (ms) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const hour = (ms) => new Date(ms).toISOString().slice(0, 13).replace('T', ' ') + ':00 UTC';

  const perHour = document.getElementById('chart-per-hour');
  if (perHour && data.perHour.hours.length > 0) {
    new Chart(perHour, {
      type: 'bar',
      data: {
        labels: data.perHour.hours.map(hour),
        datasets: data.perHour.kinds.map((k, i) => ({ label: k.kind, data: k.counts, backgroundColor: palette[i % palette.length] })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { stacked: true, title: { display: true, text: 'hour of statement time (UTC)' } },
          y: { stacked: true, beginAtZero: true, title: { display: true, text: 'records' } },
        },
      },
    });
  }

  const checkpoints = document.getElementById('chart-checkpoints');
  if (checkpoints && data.checkpoints.witnesses.length > 0) {
    new Chart(checkpoints, {
      type: 'scatter',
      data: {
        datasets: data.checkpoints.witnesses.map((w, i) => ({
          label: w.name,
          data: w.points.map((p) => ({ x: p.time * 1000, y: p.size })),
          showLine: true,
          borderColor: palette[i % palette.length],
          backgroundColor: palette[i % palette.length],
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { type: 'linear', title: { display: true, text: 'time the witness cosigned (UTC)' }, ticks: { callback: (v) => iso(v) } },
          y: { beginAtZero: true, title: { display: true, text: 'checkpoint size (records)' } },
        },
        plugins: { tooltip: { callbacks: { label: (c) => c.dataset.label + ': ' + c.parsed.y + ' records at ' + iso(c.parsed.x) } } },
      },
    });
  }
})();

// Console behaviour, all progressive: the pages work without it. No page has inline script or
// handlers: the Content-Security-Policy allows scripts from the console only.
// Draws every <div class="chart" data-labels="a,b" data-values="1,2"> as an ECharts bar chart.
// The data come as plain text attributes, never as script, so a logged value cannot run here.
(function () {
  function draw(element) {
    var labels = element.dataset.labels ? element.dataset.labels.split(',') : [];
    var values = element.dataset.values ? element.dataset.values.split(',').map(Number) : [];
    var chart = echarts.init(element);
    chart.setOption({
      grid: { left: 48, right: 16, top: 16, bottom: 48 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: labels, axisLabel: { rotate: labels.length > 14 ? 45 : 0 } },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ type: 'bar', name: element.dataset.name || '', data: values, itemStyle: { color: '#2458d3' } }]
    });
    element.setAttribute('data-drawn', 'true');
    window.addEventListener('resize', function () { chart.resize(); });
  }
  // <section id="live" data-live-url>: polls the live view every few seconds and redraws its charts
  // and tables in place (those of them the page has). Every value goes in as text (textContent), never as markup.
  // Every 5 s for the last hour (what the instances write every 5 s); longer spans, whose steps are
  // minutes or hours and which read many more buckets, less often.
  var LIVE_REFRESH_MILLIS = { '1h': 5000, '6h': 15000, '24h': 30000 };
  var LIVE_REFRESH_LONG_MILLIS = 60000;
  var COLORS = { allowed: '#2e8540', blocked: '#c0392b', shadow: '#d68910', denied: '#6c3483' };
  function live(section) {
    var status = document.getElementById('live-status');
    var totalChart = echarts.init(document.getElementById('live-chart'));
    var modulesElement = document.getElementById('live-modules-chart');
    var moduleChart = modulesElement ? echarts.init(modulesElement) : null;
    var labels = { allowed: section.dataset.allowed, blocked: section.dataset.blocked, shadow: section.dataset.shadow,
                   denied: section.dataset.denied };
    function points(times, values) {
      return times.map(function (time, i) { return [time, values[i]]; });
    }
    function sum(values, step) {
      return Math.round(values.reduce(function (a, b) { return a + b; }, 0) * step);
    }
    function options(series) {
      return {
        grid: { left: 56, right: 16, top: 32, bottom: 32 },
        legend: { type: 'scroll', top: 0 },
        tooltip: { trigger: 'axis' },
        xAxis: { type: 'time' },
        yAxis: { type: 'value', min: 0 },
        series: series
      };
    }
    function line(name, data, color, dashed) {
      return { type: 'line', name: name, data: data, showSymbol: false, color: color,
               lineStyle: { type: dashed ? 'dashed' : 'solid' } };
    }
    function cell(row, text, className) {
      var td = document.createElement('td');
      td.textContent = text;
      if (className) { td.className = className; }
      row.appendChild(td);
      return td;
    }
    function fill(table, rows, render) {
      if (!table) { return; }
      var body = table.tBodies[0];
      body.replaceChildren();
      if (rows.length === 0) {
        var row = body.insertRow();
        cell(row, section.dataset.none, 'muted').colSpan = table.tHead.rows[0].cells.length;
      }
      rows.forEach(function (item) { render(body.insertRow(), item); });
    }
    function render(view) {
      if (span && view.span !== span.value) { return; } // an answer for the span chosen before
      var t = view.times;
      var total = view.total;
      totalChart.setOption(options([
        line(labels.allowed, points(t, total.allowed), COLORS.allowed),
        line(labels.blocked, points(t, total.blocked), COLORS.blocked),
        line(labels.shadow, points(t, total.shadowBlocked), COLORS.shadow),
        line(labels.denied, points(t, total.denied), COLORS.denied)
      ]), true);
      if (moduleChart) {
        var perModule = [];
        view.modules.forEach(function (module) {
          perModule.push(line(module.module + ' ' + labels.allowed, points(t, module.rates.allowed)));
          perModule.push(line(module.module + ' ' + labels.blocked, points(t, module.rates.blocked), undefined, true));
        });
        moduleChart.setOption(options(perModule), true);
      }
      var chart = document.getElementById('live-chart');
      chart.dataset.allowed = sum(total.allowed, view.stepSeconds);
      chart.dataset.blocked = sum(total.blocked, view.stepSeconds);
      chart.dataset.shadowBlocked = sum(total.shadowBlocked, view.stepSeconds);
      chart.dataset.denied = sum(total.denied, view.stepSeconds);
      fill(document.getElementById('live-rules'), view.topRules, function (row, rule) {
        var link = document.createElement('a');
        link.href = section.dataset.ruleUrl + '?module=' + encodeURIComponent(rule.module)
          + '&rule=' + encodeURIComponent(rule.name);
        link.textContent = rule.rule;
        cell(row, '', 'wrap').appendChild(link);
        cell(row, rule.allowed, 'num');
        cell(row, rule.blocked, 'num');
        cell(row, rule.shadowBlocked, 'num');
        cell(row, rule.denied, 'num');
      });
      fill(document.getElementById('live-instances'), view.instances, function (row, instance) {
        if (instance.circuit === 'open') { row.className = 'danger'; }
        row.dataset.instance = instance.id;
        cell(row, instance.module);
        cell(row, instance.id, 'wrap');
        cell(row, instance.circuit);
        cell(row, instance.store);
        cell(row, instance.nearCache < 0 ? '' : instance.nearCache, 'num');
        cell(row, instance.leases < 0 ? '' : instance.leases, 'num');
        cell(row, instance.hotCounters, 'num');
        cell(row, instance.permitsHeld, 'num');
        cell(row, instance.configVersion, 'num');
        cell(row, new Date(instance.startedAt).toLocaleString());
      });
      status.textContent = view.error ? section.dataset.unavailable + ' ' + view.error
        : new Date(view.at).toLocaleTimeString();
      status.className = view.error ? 'error' : 'muted';
      section.dataset.refreshedAt = view.at;
      section.dataset.span = view.span;
    }
    var span = document.getElementById('live-span');
    function url() {
      var base = section.dataset.liveUrl;
      return span ? base + (base.indexOf('?') < 0 ? '?' : '&') + 'span=' + encodeURIComponent(span.value) : base;
    }
    function refresh() {
      fetch(url(), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
        .then(function (response) {
          if (!response.ok) { throw new Error('HTTP ' + response.status); }
          return response.json();
        })
        .then(render)
        .catch(function (error) {
          status.textContent = section.dataset.unavailable + ' ' + error.message;
          status.className = 'error';
        });
    }
    var timer;
    function schedule() {
      refresh();
      var every = LIVE_REFRESH_MILLIS[span ? span.value : '1h'] || LIVE_REFRESH_LONG_MILLIS;
      clearTimeout(timer);
      timer = setTimeout(schedule, every);
    }
    schedule();
    if (span) { span.addEventListener('change', schedule); }
    window.addEventListener('resize', function () {
      totalChart.resize();
      if (moduleChart) { moduleChart.resize(); }
    });
  }
  // <input data-filter-for="id-of-select">: typing narrows the select's options to those containing the text.
  function filter(input) {
    var select = document.getElementById(input.dataset.filterFor);
    input.addEventListener('input', function () {
      var wanted = input.value.toLowerCase();
      Array.prototype.forEach.call(select.options, function (option) {
        option.hidden = wanted !== '' && option.text.toLowerCase().indexOf(wanted) < 0;
      });
    });
  }
  // <section id="rule-advice" data-advice-url data-limit>: what each limit would have refused of the rule's
  // demand over the period chosen, as shares of its requests and clients, the limit in force and the suggestion
  // marked; the clients with the highest demand; the suggestion put in the apply form (when the page has one).
  // Read again every 15 s: the instances write what they record every few seconds.
  var ADVICE_REFRESH_MILLIS = 15000;
  function advice(section) {
    var chart = echarts.init(document.getElementById('advice-chart'));
    var since = document.getElementById('advice-since');
    var summary = document.getElementById('advice-summary');
    var limit = Number(section.dataset.limit);
    function percent(part, whole) {
      return whole > 0 ? Math.round(1000 * part / whole) / 10 : 0;
    }
    function render(view) {
      var body = document.querySelector('#advice-clients tbody');
      body.textContent = '';
      var form = document.getElementById('advice-apply');
      if (view.clients === 0) {
        summary.textContent = section.dataset.none;
        chart.clear();
        if (form) { form.hidden = true; }
        return;
      }
      summary.textContent = section.dataset.summary.replace('{0}', limit)
        .replace('{1}', percent(view.refusedRequests, view.requests))
        .replace('{2}', percent(view.refusedClients, view.clients)).replace('{3}', view.suggested);
      var marks = [{ xAxis: limit, name: section.dataset.inForce }, { xAxis: view.suggested, name: section.dataset.suggested }];
      chart.setOption({
        grid: { left: 48, right: 16, top: 32, bottom: 32 },
        tooltip: { trigger: 'axis' },
        legend: { top: 0 },
        xAxis: { type: 'value', min: 1, minInterval: 1 },
        yAxis: { type: 'value', max: 100, axisLabel: { formatter: '{value} %' } },
        series: [
          { type: 'line', name: section.dataset.refusedRequests, showSymbol: false, color: '#c0392b',
            data: view.curve.map(function (point) { return [point.limit, percent(point.refusedRequests, view.requests)]; }),
            markLine: { symbol: 'none', label: { formatter: '{b}' }, data: marks } },
          { type: 'line', name: section.dataset.refusedClients, showSymbol: false, color: '#d68910',
            data: view.curve.map(function (point) { return [point.limit, percent(point.refusedClients, view.clients)]; }) }
        ]
      }, true);
      view.topClients.forEach(function (client) {
        var row = body.insertRow();
        row.insertCell().textContent = client.client;
        var demand = row.insertCell();
        demand.className = 'num';
        demand.textContent = client.demand;
      });
      if (form) {
        document.getElementById('advice-count').value = view.suggested;
        form.hidden = view.suggested === limit || view.suggested < 1;
      }
      section.setAttribute('data-suggested-limit', String(view.suggested));
    }
    poll(section, chart, since, summary, render, function () {
      return section.dataset.adviceUrl + '&since=' + encodeURIComponent(since.value) + '&limit=' + limit;
    });
  }
  // Reads url() now, every ADVICE_REFRESH_MILLIS and when the period changes, and renders the answer; when there is
  // none, the section's notice that the statistics do not answer.
  function poll(section, chart, since, summary, render, url) {
    var timer = null;
    function load() {
      clearTimeout(timer);
      timer = setTimeout(load, ADVICE_REFRESH_MILLIS);
      fetch(url(), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
        .then(function (response) {
          if (!response.ok) { throw new Error(String(response.status)); }
          return response.json();
        })
        .then(render)
        .catch(function () { summary.textContent = section.dataset.unavailable; });
    }
    since.addEventListener('change', load);
    window.addEventListener('resize', function () { chart.resize(); });
    load();
  }
  // <section id="rule-windows" data-windows-url data-limit>: a rule's requests per window of its length over the
  // period chosen, its limit marked (not for a concurrency limit, whose count is of requests at once). Read again as
  // the advice is.
  var PERIOD_MILLIS = { PT1H: 3600000, P1D: 86400000, P7D: 604800000 };
  function windows(section) {
    var chart = echarts.init(document.getElementById('windows-chart'));
    var since = document.getElementById('windows-since');
    var summary = document.getElementById('windows-summary');
    var limit = section.dataset.limit;
    function render(view) {
      if (view.windows.length === 0) {
        summary.textContent = section.dataset.none;
        chart.clear();
        return;
      }
      summary.textContent = section.dataset.summary.replace('{0}', view.requests).replace('{1}', view.busiest);
      chart.setOption({
        grid: { left: 48, right: 16, top: 32, bottom: 32 },
        tooltip: { trigger: 'axis' },
        // The whole period, whatever windows had requests: a lone window would otherwise span the chart.
        xAxis: { type: 'time', min: Date.now() - PERIOD_MILLIS[since.value], max: Date.now() },
        yAxis: { type: 'value', minInterval: 1 },
        series: [{ type: 'bar', name: section.dataset.requests, color: '#2e86c1', barMinWidth: 2, barMaxWidth: 16,
          // An app whose JSON writes instants as numbers writes seconds.
          data: view.windows.map(function (window) {
            return [typeof window.start === 'number' ? window.start * 1000 : window.start, window.requests];
          }),
          markLine: limit ? { symbol: 'none', label: { formatter: '{b}' },
            data: [{ yAxis: Number(limit), name: section.dataset.inForce }] } : undefined }]
      }, true);
    }
    poll(section, chart, since, summary, render, function () {
      return section.dataset.windowsUrl + '&since=' + encodeURIComponent(since.value);
    });
  }
  document.addEventListener('DOMContentLoaded', function () {
    if (typeof echarts !== 'undefined') {
      document.querySelectorAll('.chart').forEach(draw);
      var liveSection = document.getElementById('live');
      if (liveSection) { live(liveSection); }
      var adviceSection = document.getElementById('rule-advice');
      if (adviceSection) { advice(adviceSection); }
      var windowsSection = document.getElementById('rule-windows');
      if (windowsSection) { windows(windowsSection); }
    }
    document.querySelectorAll('[data-filter-for]').forEach(filter);
    // <select data-autosubmit>: choosing submits its form (the language menu).
    document.querySelectorAll('select[data-autosubmit]').forEach(function (select) {
      select.addEventListener('change', function () { select.form.submit(); });
    });
  });
})();

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
  document.addEventListener('DOMContentLoaded', function () {
    if (typeof echarts !== 'undefined') {
      document.querySelectorAll('.chart').forEach(draw);
    }
    document.querySelectorAll('[data-filter-for]').forEach(filter);
    // <select data-autosubmit>: choosing submits its form (the language menu).
    document.querySelectorAll('select[data-autosubmit]').forEach(function (select) {
      select.addEventListener('change', function () { select.form.submit(); });
    });
  });
})();

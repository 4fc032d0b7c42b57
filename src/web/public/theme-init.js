// Applies the stored theme before the first paint (no flash of the wrong theme). Key: ui-theme.
(function () {
  try {
    var t = localStorage.getItem('ui-theme') || 'dark';
    if (t === 'system') t = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    var c = document.documentElement.classList;
    c.remove('light', 'dark');
    c.add(t === 'light' ? 'light' : 'dark');
  } catch (e) {}
})();

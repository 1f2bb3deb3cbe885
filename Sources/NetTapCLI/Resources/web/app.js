// NetTap demo: the help center's own script, served from the app's bundle.
document.addEventListener("DOMContentLoaded", function () {
  document.title = "Help center (offline copy)";
});

// NetTap demo: the help widget the help center loads from its CDN.
(function () {
  "use strict";
  function attach() {
    var box = document.getElementById("help-search");
    if (!box) { return; }
    box.addEventListener("input", function () {
      var query = box.value.toLowerCase();
      document.querySelectorAll("[data-topic]").forEach(function (item) {
        item.hidden = query !== "" && item.dataset.topic.indexOf(query) === -1;
      });
    });
  }
  document.addEventListener("DOMContentLoaded", attach);
})();

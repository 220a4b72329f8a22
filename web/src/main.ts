document.getElementById("app")!.textContent = "Airlock";

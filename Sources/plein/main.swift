import PleinCLI

await Plein.run()

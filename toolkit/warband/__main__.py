from warband.cli import main

main()

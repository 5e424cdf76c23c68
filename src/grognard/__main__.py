from grognard.cli.main import main

raise SystemExit(main())

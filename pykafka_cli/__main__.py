from pykafka_cli.main import main

raise SystemExit(main())

from rulebot.cli.quick import main

main()

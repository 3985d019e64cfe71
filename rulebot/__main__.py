from rulebot.cli import main

main()

from rulebot.entry import main

main()

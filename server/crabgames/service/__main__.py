from crabgames.service.main import main

main()

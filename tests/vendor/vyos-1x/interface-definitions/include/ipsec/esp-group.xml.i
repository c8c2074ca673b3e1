<!-- include start from ipsec/esp-group.xml.i -->
<leafNode name="esp-group">
  <properties>
    <help>Encapsulating Security Payloads (ESP) group name</help>
    <completionHelp>
      <path>vpn ipsec esp-group</path>
    </completionHelp>
  </properties>
</leafNode>
<!-- include end -->
